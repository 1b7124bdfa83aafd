package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link FirstResultRow} on sqlline's output. */
class FirstResultRowTest {
  @Test void findsTheNumericRowAfterTheHeader() {
    final List<String> output = List.of(
        "Demo data already loaded; use --force to recreate it.",
        "+-------------+",
        "| ORDER_COUNT |",
        "+-------------+",
        "| 200000      |",
        "+-------------+",
        "1 row selected (1.072 seconds)");
    assertEquals(4, firstMatch(output));
  }

  @Test void acceptsSeveralNumericCellsAndSeparators() {
    assertTrue(FirstResultRow.matches("| 1 | 2,500.5 | -3 |"));
    assertTrue(FirstResultRow.matches("  | 7 |  "));
  }

  @Test void rejectsHeadersBordersAndMessages() {
    assertFalse(FirstResultRow.matches("| EXPR$0 |"));
    assertFalse(FirstResultRow.matches("+--------+"));
    assertFalse(FirstResultRow.matches("1 row selected (0.5 seconds)"));
    assertFalse(FirstResultRow.matches("| 12 | abc |"));
    assertFalse(FirstResultRow.matches(""));
  }

  private static int firstMatch(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      if (FirstResultRow.matches(lines.get(i))) {
        return i;
      }
    }
    return -1;
  }
}
