package io.shardset.reshard;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Conditions that select the rows of a batch of routing keys. */
class KeyMatchTest {
  @Test void oneColumnWithNull() {
    assertEquals("\"K\" IN (?, ?) OR \"K\" IS NULL", KeyMatch.of(List.of("\"K\""),
        List.of(List.of(1), Arrays.asList((Object) null), List.of(2))).sql());
    assertEquals("\"K\" IS NULL", KeyMatch.of(List.of("\"K\""),
        List.of(Arrays.asList((Object) null))).sql());
  }

  @Test void severalColumns() {
    assertEquals("(A = ? AND B = ?) OR (A = ? AND B IS NULL)", KeyMatch.of(List.of("A", "B"),
        List.of(List.of(1, "x"), Arrays.asList(2, null))).sql());
  }
}
