package io.shardset.calcite.runtime;

import org.apache.calcite.DataContext;
import org.apache.calcite.DataContexts;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The small side of a bind join is read once per execution for both the key list and the
 * join; its null keys join nothing and are left out; past the limits no key list is made and
 * the side is read again where the join reads it.
 */
class BindJoinKeysTest {
  /** Rows of one key column, counting how often they are read. */
  private static final class Counted extends AbstractEnumerable<Object[]> {
    final AtomicInteger reads = new AtomicInteger();
    private final List<Object[]> rows;

    Counted(Integer... keys) {
      rows = new ArrayList<>();
      for (Integer key : keys) {
        rows.add(new Object[] {key});
      }
    }

    @Override public Enumerator<Object[]> enumerator() {
      reads.incrementAndGet();
      return Linq4j.enumerator(rows);
    }
  }

  private static List<Object> keysOf(Enumerable<Object[]> rows) {
    final List<Object> keys = new ArrayList<>();
    for (Object[] row : rows) {
      keys.add(row[0]);
    }
    return keys;
  }

  @Test void readOnceForTheKeysAndTheJoin() {
    final BindJoinKeys keys = new BindJoinKeys(10, 100);
    final Counted side = new Counted(3, 1, null, 3, 2);
    final DataContext root = DataContexts.EMPTY;
    final Enumerable<Object[]> rows = keys.collect(root, side, row -> row[0]);
    assertEquals(List.of(3, 1, 2), keys.keys(root));
    assertEquals(Arrays.asList(3, 1, null, 3, 2), keysOf(rows));
    assertEquals(Arrays.asList(3, 1, null, 3, 2), keysOf(rows));
    assertEquals(1, side.reads.get());
  }

  @Test void theJoinMayReadFirst() {
    final BindJoinKeys keys = new BindJoinKeys(10, 100);
    final Counted side = new Counted(5, 4);
    final DataContext root = DataContexts.EMPTY;
    final Enumerable<Object[]> rows = keys.collect(root, side, row -> row[0]);
    assertEquals(List.of(5, 4), keysOf(rows));
    assertEquals(List.of(5, 4), keys.keys(root));
    assertEquals(1, side.reads.get());
  }

  @Test void pastTheLimitsNoKeysAndTheSideIsReadAgain() {
    final BindJoinKeys keys = new BindJoinKeys(2, 100);
    final Counted side = new Counted(1, 2, 3);
    final DataContext root = DataContexts.EMPTY;
    final Enumerable<Object[]> rows = keys.collect(root, side, row -> row[0]);
    assertNull(keys.keys(root));
    assertEquals(List.of(1, 2, 3), keysOf(rows));
    assertEquals(2, side.reads.get());

    final BindJoinKeys fewRows = new BindJoinKeys(2, 3);
    final Counted repeated = new Counted(1, 1, 2, 2);
    final Enumerable<Object[]> again = fewRows.collect(root, repeated, row -> row[0]);
    assertNull(fewRows.keys(root));
    assertEquals(List.of(1, 1, 2, 2), keysOf(again));
  }

  @Test void eachExecutionHasItsOwnKeys() {
    final BindJoinKeys keys = new BindJoinKeys(10, 100);
    final DataContext first = DataContexts.of(java.util.Map.of());
    final DataContext second = DataContexts.of(java.util.Map.of());
    // The executions' operators hold their sides while they run.
    final Enumerable<Object[]> firstRows = keys.collect(first, new Counted(1), row -> row[0]);
    final Enumerable<Object[]> secondRows = keys.collect(second, new Counted(2), row -> row[0]);
    assertEquals(List.of(2), keys.keys(second));
    assertEquals(List.of(1), keys.keys(first));
    assertEquals(List.of(1), keysOf(firstRows));
    assertEquals(List.of(2), keysOf(secondRows));
    assertNull(keys.keys(DataContexts.of(java.util.Map.of())));
  }

  @Test void limitsMustLeaveRoomForKeys() {
    assertEquals("maxKeys must be positive and maxRows at least maxKeys, got 0 and 5",
        assertThrows(IllegalArgumentException.class, () -> new BindJoinKeys(0, 5))
            .getMessage());
  }

  @Test void aKeyListWrapsTheScanAndBindsItsKeysAsTheColumnsType() {
    final JoinKeyList list = JoinKeyList.of(new BindColumn(new BindJoinKeys(10, 10), 1,
        org.apache.calcite.sql.type.SqlTypeName.BIGINT, false), List.of(7, 8L));
    // As query parameters: an int stays an int, which the drivers bind to a BIGINT too.
    assertEquals(List.of(7, 8L), list.values());
    assertEquals("WITH shardset_keys (c0, c1, c2) AS (SELECT A, B, C FROM T) SELECT * FROM"
        + " shardset_keys WHERE c1 IN (?, ?)", list.wrap("SELECT A, B, C FROM T", 3));
  }
}
