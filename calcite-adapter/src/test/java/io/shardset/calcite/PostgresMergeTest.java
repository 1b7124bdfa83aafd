package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link MergeTestBase} on four shards of PostgreSQL. */
class PostgresMergeTest extends MergeTestBase {
  @Override Backend backend() {
    return Backend.POSTGRES;
  }

  @Override String expectedForms() {
    return "INSERT ... ON CONFLICT DO UPDATE";
  }

  /**
   * Two statements upsert one new key: the second waits on the shard for the first's
   * transaction and then updates the row, where an INSERT (or a MERGE that read the table
   * first) would fail on the duplicate key.
   */
  @Test void concurrentUpsertsOfOneKeyBothSucceed() throws Exception {
    final String merge = "MERGE INTO ORDERS USING (VALUES (42, CAST(? AS VARCHAR(40)))) AS s"
        + " (I, C) ON ORDERS.ID = s.I WHEN MATCHED THEN UPDATE SET CUSTOMER = s.C"
        + " WHEN NOT MATCHED THEN INSERT (ID, CUSTOMER) VALUES (s.I, s.C)";
    final String shard = "s" + ExpectedPlacement.shardOfLong(42, CHUNKS, SHARDS);
    try (Connection first = Connector.SHARDSET.open(model);
        Connection second = Connector.SHARDSET.open(model)) {
      first.setAutoCommit(false);
      assertEquals(1, upsert(first, merge, "first"));
      final CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> {
        try {
          return upsert(second, merge, "second");
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      awaitLockWait(shard, waiting);
      first.commit();
      assertEquals(1, waiting.get(30, TimeUnit.SECONDS));
      assertEquals(List.of("42, second, NULL, NULL"),
          ShardFixture.rows(second, "SELECT * FROM ORDERS"));
    }
  }

  private static int upsert(Connection c, String merge, String customer) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(merge)) {
      p.setString(1, customer);
      return p.executeUpdate();
    }
  }

  /** Returns once a session of the shard's database waits for a lock; fails if the
   * statement ended instead or no session waits within 30 seconds. */
  private void awaitLockWait(String shard, CompletableFuture<Integer> statement)
      throws SQLException, ExecutionException, InterruptedException, TimeoutException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (Connection p = plain(shard); Statement s = p.createStatement()) {
      while (System.nanoTime() < deadline) {
        assertTrue(!statement.isDone(), () -> "the second upsert did not wait: "
            + statement.join());
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_stat_activity"
            + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return;
          }
        }
      }
    }
    throw new TimeoutException("no session of shard " + shard + " waits for a lock");
  }
}
