package io.shardset.bench;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests {@link WriteWorkloads} over in-memory H2 shards: every row D, X and S insert lands on
 * the shard that ShardSet's router names, each operation counts the rows it wrote, and clearing
 * leaves every shard empty.
 */
class WriteWorkloadsTest {
  private static final BenchData DATA = new BenchData(4_000);
  private static BenchSystems systems;
  private static WriteWorkloads writes;

  @BeforeAll static void open() throws Exception {
    systems = BenchSystems.open(MemBenchDatabase.create("write-workloads", DATA));
    writes = new WriteWorkloads(systems, DATA);
  }

  @AfterAll static void close() throws Exception {
    if (systems != null) {
      systems.close();
    }
  }

  @Test void aSingleRowInsertLandsOnItsShardOnEverySystemThatRunsIt() throws Exception {
    assertRowsLandOnTheirShards(writes.singleInsert(), 1);
  }

  @Test void aBatchLandsOnItsShardsOnEverySystemThatRunsIt() throws Exception {
    assertRowsLandOnTheirShards(writes.batchInsert(), WriteWorkloads.BATCH_ROWS);
  }

  @Test void aFourShardInsertWritesOneRowOnEachShard() throws Exception {
    final Map<String, Operation> operations = writes.fourShardInsert();
    try {
      operations.get("D").run(0);
      assertEquals(List.of(1L, 1L, 1L, 1L), rowsPerShard());
    } finally {
      writes.clear();
    }
    assertRowsLandOnTheirShards(writes.fourShardInsert(), 4);
  }

  @Test void anUpdateChangesOneRowByItsKeysOnItsShard() throws Exception {
    try {
      // Its own new orders, so the rows it updates are the first new order numbers.
      final Map<String, Operation> operations = new WriteWorkloads(systems, DATA).updateByKey();
      assertEquals(WriteWorkloads.UPDATED_ROWS, total(rowsPerShard()));
      final Map<String, String> failed = new HashMap<>();
      for (Map.Entry<String, Operation> system : operations.entrySet()) {
        for (int iteration = 0; iteration < 7; iteration++) {
          try {
            assertEquals(1, system.getValue().run(iteration), system.getKey());
          } catch (SQLException e) {
            failed.put(system.getKey(), e.getMessage());
            break;
          }
        }
      }
      assertEquals(Map.of(), failed, "D, X and S update");
      // Iteration i set the i-th row's STATUS and TOTAL to its values; no other row changed.
      final Map<Long, String> expected = new HashMap<>();
      for (int i = 0; i < 7; i++) {
        expected.put(DATA.orders() + 1 + i, BenchData.STATUSES.get(i % 5) + " "
            + BigDecimal.valueOf(100 + i, 2));
      }
      assertEquals(expected, changedRows());
    } finally {
      writes.clear();
    }
    assertEquals(0, total(rowsPerShard()));
  }

  @Test void batchCountsOfDriversThatGiveNoCountsCountOneRowEach() throws SQLException {
    assertEquals(3, WriteWorkloads.rowsWritten(new int[] {1, 1, 1}));
    assertEquals(3, WriteWorkloads.rowsWritten(new int[] {
        Statement.SUCCESS_NO_INFO, Statement.SUCCESS_NO_INFO, 1}));
    assertEquals(0, WriteWorkloads.rowsWritten(new int[0]));
    final SQLException e = assertThrows(SQLException.class,
        () -> WriteWorkloads.rowsWritten(new int[] {1, Statement.EXECUTE_FAILED}));
    assertEquals("a row of the batch failed (EXECUTE_FAILED)", e.getMessage());
    assertEquals("the batch gave a row the update count -1, which JDBC does not define",
        assertThrows(SQLException.class,
            () -> WriteWorkloads.rowsWritten(new int[] {1, -1})).getMessage());
  }

  @Test void aFailureToPrepareIsReportedByItsDeepestReason() {
    final SQLException wrapped = new SQLException("Error while preparing statement [INSERT ...]",
        new RuntimeException("outer", new AssertionError("UPDATE")));
    assertEquals("AssertionError: UPDATE", WriteWorkloads.rootCause(wrapped));
    assertEquals("Unique index or primary key violation", WriteWorkloads.rootCause(
        new SQLException("outer", new SQLException("Unique index or primary key violation"))));
    assertEquals("java.lang.IllegalStateException",
        WriteWorkloads.rootCause(new IllegalStateException()));
    // A planner's message: its first line, cut short.
    final String reason = WriteWorkloads.rootCause(new SQLException("Error while preparing",
        new RuntimeException("There are not enough rules" + " x".repeat(100) + "\nSets: ...")));
    assertEquals(WriteWorkloads.REASON_LENGTH + 3, reason.length());
    assertTrue(reason.startsWith("RuntimeException: There are not enough rules x x")
        && reason.endsWith("..."),
        reason);
  }

  /**
   * Runs each system's operation three times and checks that it counted {@code rowsPerRun}
   * rows each time, and that every row is on the shard ShardSet's router names; then clears.
   */
  private static void assertRowsLandOnTheirShards(Map<String, Operation> operations,
      int rowsPerRun) throws Exception {
    try {
      long expected = 0;
      final Map<String, String> failed = new HashMap<>();
      for (Map.Entry<String, Operation> system : operations.entrySet()) {
        try {
          for (int iteration = 0; iteration < 3; iteration++) {
            assertEquals(rowsPerRun, system.getValue().run(iteration), system.getKey());
            expected += rowsPerRun;
          }
        } catch (SQLException e) {
          failed.put(system.getKey(), e.getMessage());
        }
      }
      assertEquals(Map.of(), failed, "D, X and S write");
      assertEquals(expected, total(rowsPerShard()));
      assertEquals(List.of(), misplacedRows());
    } finally {
      writes.clear();
    }
    assertEquals(0, total(rowsPerShard()));
  }

  private static List<Long> rowsPerShard() throws SQLException {
    final List<Long> rows = new ArrayList<>();
    for (Connection shard : systems.shards()) {
      try (Statement s = shard.createStatement();
           ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + WriteTable.NAME)) {
        rs.next();
        rows.add(rs.getLong(1));
      }
    }
    return rows;
  }

  private static long total(List<Long> counts) {
    return counts.stream().mapToLong(Long::longValue).sum();
  }

  /** The rows on a shard other than the one the router names for their CUSTOMER_ID. */
  private static List<String> misplacedRows() throws SQLException {
    final List<String> misplaced = new ArrayList<>();
    for (int i = 0; i < systems.shardCount(); i++) {
      try (Statement s = systems.shard(i).createStatement();
           ResultSet rs = s.executeQuery("SELECT ORDER_ID, CUSTOMER_ID FROM "
               + WriteTable.NAME)) {
        while (rs.next()) {
          if (systems.shardOfWrite(rs.getLong(2)) != i) {
            misplaced.add("ORDER_ID " + rs.getLong(1) + " on s" + i);
          }
        }
      }
    }
    return misplaced;
  }

  /** STATUS and TOTAL of the rows whose values differ from the generated order's, by id. */
  private static Map<Long, String> changedRows() throws SQLException {
    final Map<Long, String> changed = new HashMap<>();
    for (Connection shard : systems.shards()) {
      try (Statement s = shard.createStatement();
           ResultSet rs = s.executeQuery("SELECT ORDER_ID, STATUS, TOTAL FROM "
               + WriteTable.NAME)) {
        while (rs.next()) {
          final Object[] generated = DATA.order(rs.getLong(1));
          if (!generated[3].equals(rs.getString(2))
              || ((BigDecimal) generated[4]).compareTo(rs.getBigDecimal(3)) != 0) {
            changed.put(rs.getLong(1), rs.getString(2) + " " + rs.getBigDecimal(3));
          }
        }
      }
    }
    return changed;
  }
}
