package io.shardset.execution;

import io.shardset.execution.RowReader.ColumnKind;
import io.shardset.testing.LongTest;
import io.shardset.testing.TestPools;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sorted merge of 512 shards keeps its rows and threads within a budget that does not grow
 * with the shards: it runs in a JVM whose heap (the build runs this class alone with
 * {@code -Xmx96m}) cannot hold what buffers of their own would hold for every shard.
 *
 * <p>The shards are cheap: one in-memory H2 database, whose lazily executed queries generate
 * each shard's rows as they are read, reached through 512 endpoints. Shard {@code i} returns
 * the ids {@code x * 512 + i}, so the merged ids count up from 0, each with a payload of its
 * own (a constant one would be one string shared by every row).
 */
@LongTest
class WideMergeMemoryTest {
  private static final int SHARDS = 512;
  private static final int ROWS_PER_SHARD = 600;
  /**
   * About 1 KB a row: every shard's rows held at once, as a buffer of its own per shard (16
   * batches of 256 rows, and a read-ahead of 1,000) would hold them, are over 300 MB.
   */
  private static final int PAYLOAD = 1000;
  private static final String URL =
      "jdbc:h2:mem:shardset_wide_merge;DB_CLOSE_DELAY=-1;LAZY_QUERY_EXECUTION=TRUE";
  private static final String THREAD_PREFIX = "shardset-scan-";
  private static final RowReader ID_PAYLOAD =
      RowReader.of(List.of(ColumnKind.BIGINT, ColumnKind.STRING));

  @AfterAll static void dropDatabase() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL, "sa", "");
         Statement s = c.createStatement()) {
      s.execute("SHUTDOWN");
    }
  }

  @Test void mergesManyShardsWithinTheBudgetOnParallelismThreads() {
    List<ShardRequest> requests = new ArrayList<>();
    for (int i = 0; i < SHARDS; i++) {
      requests.add(ShardRequest.of(new H2Shard("s" + i),
          "SELECT X * " + SHARDS + " + " + i + ", REPEAT('x', " + (PAYLOAD - 6) + ")"
              + " || LPAD(CAST(X AS VARCHAR), 6, '0')"
              + " FROM SYSTEM_RANGE(0, " + (ROWS_PER_SHARD - 1) + ")"));
    }
    ScanOptions options = TestPools.scanOptions(SHARDS);
    long threadsBefore = liveScanThreads();
    long expected = 0;
    long threadsHalfway = -1;
    ScanEnumerator<MergeCursor> merge = ParallelScan.sorted(requests, ID_PAYLOAD, options,
        RowComparator.of(List.of(new SortKey(0, false, false))));
    try (merge) {
      while (merge.moveNext()) {
        assertEquals(expected, merge.current()[0]);
        assertEquals(PAYLOAD, ((String) merge.current()[1]).length());
        expected++;
        if (expected == (long) SHARDS * ROWS_PER_SHARD / 2) {
          threadsHalfway = liveScanThreads();
          int buffered = merge.cursor().bufferedRows().stream().mapToInt(Integer::intValue)
              .sum();
          assertTrue(buffered <= MergeCursor.budgetRows(options), buffered + " rows buffered");
        }
      }
    }
    assertEquals((long) SHARDS * ROWS_PER_SHARD, expected);
    assertEquals(SHARDS, merge.startedRequests());
    assertTrue(threadsHalfway - threadsBefore <= options.parallelism(),
        threadsHalfway + " scan threads halfway, " + threadsBefore + " before");
    assertTrue(merge.cursor().peakRunningTasks() <= options.parallelism());
    int share = MergeCursor.shareRows(options, SHARDS);
    for (int peak : merge.cursor().peakBufferedRows()) {
      assertTrue(peak <= share, peak + " rows buffered for one shard");
    }
  }

  /** The threads of the scan pool alive now, busy or idle. */
  private static long liveScanThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith(THREAD_PREFIX)).count();
  }

  /** One shard: a connection of its own to the one database. */
  private record H2Shard(String name) implements ShardEndpoint {
    @Override public Connection connect() throws SQLException {
      return DriverManager.getConnection(URL, "sa", "");
    }

    @Override public String redact(String message) {
      return message;
    }
  }
}
