package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.EnumerableDefaults;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SpillingHashJoin} gives the rows Calcite's in-memory joins give (inner, left, right,
 * full, semi, anti), for generated rows with duplicate and NULL keys, whether the inner rows
 * fit its budget, spill to files, or need a second split; rows of one key beyond the budget
 * fail naming it; and no file is left behind.
 */
class SpillingHashJoinTest {
  @TempDir Path folder;

  private static final Function1<Object[], Object> KEY = row -> row[0];
  private static final Function2<Object[], Object[], String> PAIR =
      (o, i) -> (o == null ? "-" : o[1]) + ":" + (i == null ? "-" : i[1]);

  @Test void joinsAsCalciteDoesWhateverTheBudget() throws IOException {
    for (long budget : new long[] {1L << 30, 256 << 10, 16 << 10, 1}) {
      final SplittableRandom random = new SplittableRandom(budget);
      final List<Object[]> outer = rows(random, 3_000, 400, "o");
      final List<Object[]> inner = rows(random, 4_000, 400, "i");
      for (boolean[] nulls : new boolean[][] {{false, false}, {false, true}, {true, false},
          {true, true}}) {
        final String kind = "generating nulls " + nulls[0] + "/" + nulls[1];
        assertSame(EnumerableDefaults.hashJoin(Linq4j.asEnumerable(outer),
                Linq4j.asEnumerable(inner), KEY, KEY, PAIR, null, nulls[0], nulls[1]),
            spilling(outer, inner, budget, (o, i) -> EnumerableDefaults.hashJoin(o, i, KEY,
                KEY, PAIR, null, nulls[0], nulls[1])), kind + ", budget " + budget);
      }
      assertSame(EnumerableDefaults.semiJoin(Linq4j.asEnumerable(outer),
              Linq4j.asEnumerable(inner), KEY, KEY).select(o -> PAIR.apply(o, null)),
          spilling(outer, inner, budget, (o, i) -> EnumerableDefaults.semiJoin(o, i, KEY, KEY)
              .select(r -> PAIR.apply(r, null))), "semi, budget " + budget);
      assertSame(EnumerableDefaults.antiJoin(Linq4j.asEnumerable(outer),
              Linq4j.asEnumerable(inner), KEY, KEY).select(o -> PAIR.apply(o, null)),
          spilling(outer, inner, budget, (o, i) -> EnumerableDefaults.antiJoin(o, i, KEY, KEY)
              .select(r -> PAIR.apply(r, null))), "anti, budget " + budget);
      assertEquals(0, files(), "files left with a budget of " + budget);
    }
  }

  @Test void spillsBeyondTheBudgetAndSplitsAgainWherePartitionsOutgrowIt() {
    final SplittableRandom random = new SplittableRandom(7);
    final List<Object[]> outer = rows(random, 2_000, 50_000, "o");
    final List<Object[]> inner = rows(random, 20_000, 50_000, "i");
    // 20,000 inner rows of some 100 bytes in 32 partitions: about 60 KB each, beyond 32 KB.
    final Enumerable<String> joined = spilling(outer, inner, 32 << 10,
        (o, i) -> EnumerableDefaults.hashJoin(o, i, KEY, KEY, PAIR));
    int spilled = 0;
    try (Enumerator<String> rows = joined.enumerator()) {
      assertTrue(rows.moveNext());
      spilled = files();
    }
    assertTrue(spilled > 2 * SpillingHashJoin.PARTITIONS, "split twice: " + spilled + " files");
    assertSame(EnumerableDefaults.hashJoin(Linq4j.asEnumerable(outer),
        Linq4j.asEnumerable(inner), KEY, KEY, PAIR), joined, "split twice");
    assertEquals(0, files());
  }

  @Test void rowsOfOneKeyBeyondTheBudgetFailNamingIt() {
    final List<Object[]> inner = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      inner.add(new Object[] {42, i, "x".repeat(50)});
    }
    final Enumerable<String> joined = spilling(inner, inner, 64 << 10,
        (o, i) -> EnumerableDefaults.hashJoin(o, i, KEY, KEY, PAIR));
    final IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
      try (Enumerator<String> rows = joined.enumerator()) {
        rows.moveNext();
      }
    });
    assertEquals("cannot join above the shards within a budget of 64 KB: the rows of one"
        + " join key take more than that", e.getMessage());
    assertEquals(0, files());
  }

  private Enumerable<String> spilling(List<Object[]> outer, List<Object[]> inner, long budget,
      SpillingHashJoin.InMemoryJoin<Object[], Object[], String> join) {
    return SpillingHashJoin.join(Linq4j.asEnumerable(outer), Linq4j.asEnumerable(inner),
        row -> row[0], row -> row[0], Object::hashCode, join, budget,
        "a budget of " + (budget >> 10) + " KB", folder);
  }

  /** Rows of a key (NULL one time in ten), a number telling them apart and a payload. */
  private static List<Object[]> rows(SplittableRandom random, int count, int keys,
      String side) {
    final List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(new Object[] {random.nextInt(10) == 0 ? null : random.nextInt(keys), side + i,
          "x".repeat(random.nextInt(60))});
    }
    return rows;
  }

  private static void assertSame(Enumerable<String> expected, Enumerable<String> actual,
      String what) {
    final List<String> want = new ArrayList<>(expected.toList());
    final List<String> got = new ArrayList<>(actual.toList());
    Collections.sort(want);
    Collections.sort(got);
    assertTrue(!want.isEmpty(), what);
    assertEquals(want, got, what);
  }

  private int files() {
    try (Stream<Path> files = Files.list(folder)) {
      return (int) files.count();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
