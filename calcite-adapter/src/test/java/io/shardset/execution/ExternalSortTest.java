package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ExternalSort} gives the order a stable in-memory sort gives (equal rows in their input
 * order), for generated rows with many duplicates and NULLs, whether they fit its budget or
 * spill to dozens of runs; and leaves no file behind.
 */
class ExternalSortTest {
  @TempDir Path folder;

  /** Orders by the first column, NULLs first; the second column tells equal rows apart. */
  private static final Comparator<Object[]> BY_KEY = Comparator.comparing(
      (Object[] row) -> (Integer) row[0], Comparator.nullsFirst(Comparator.naturalOrder()));

  @Test void spilledRunsMergeAsAStableSortWould() throws IOException {
    for (long budget : new long[] {1 << 30, 64 << 10, 4 << 10, 1}) {
      final SplittableRandom random = new SplittableRandom(budget);
      final List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < 20_000; i++) {
        rows.add(new Object[] {random.nextInt(10) == 0 ? null : random.nextInt(500), i,
            "x".repeat(random.nextInt(40))});
      }
      final List<Object[]> expected = new ArrayList<>(rows);
      expected.sort(BY_KEY);
      final List<Object[]> actual = new ArrayList<>();
      try (Enumerator<Object[]> sorted = ExternalSort.sort(Linq4j.asEnumerable(rows), BY_KEY,
          budget, folder).enumerator()) {
        while (sorted.moveNext()) {
          actual.add(sorted.current());
        }
        if (budget < 1 << 20) {
          assertTrue(files() > 0, "spilled to files with a budget of " + budget);
        }
      }
      assertEquals(expected.size(), actual.size());
      for (int i = 0; i < expected.size(); i++) {
        assertEquals(expected.get(i)[1], actual.get(i)[1], "row " + i + ", budget " + budget);
      }
      assertEquals(0, files(), "files left with a budget of " + budget);
    }
  }

  /** A row of one column is the value itself, NULL included, as Calcite's scalar rows are. */
  @Test void scalarRowsAndNullsSpillToo() throws IOException {
    final List<String> rows = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      rows.add(i % 7 == 0 ? null : Integer.toString(i % 101));
    }
    final Comparator<String> order = Comparator.nullsLast(Comparator.naturalOrder());
    final List<String> expected = new ArrayList<>(rows);
    expected.sort(order);
    final List<String> actual = new ArrayList<>();
    try (Enumerator<String> sorted = ExternalSort.sort(Linq4j.asEnumerable(rows), order, 1_000,
        folder).enumerator()) {
      while (sorted.moveNext()) {
        actual.add(sorted.current());
      }
    }
    assertEquals(expected, actual);
    assertEquals(0, files());
  }

  private long files() throws IOException {
    try (Stream<Path> list = Files.list(folder)) {
      return list.filter(f -> f.getFileName().toString().startsWith("shardset-")).count();
    }
  }
}
