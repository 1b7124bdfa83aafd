package io.shardset.execution;

import io.shardset.testing.CountingShards;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * Base of tests of {@link ParallelScan} over {@link CountingShards}: after every test, nothing
 * may be left open at any shard.
 */
abstract class ShardScanTestBase {
  /** The shards; each subclass creates them in its {@code @BeforeAll}. */
  static CountingShards shards;

  @AfterAll static void closeShards() throws SQLException {
    shards.close();
  }

  @BeforeEach void resetShards() {
    shards.clearFailures();
    shards.resetCounters();
  }

  /** Whatever a test did, no statement or connection may be left open at the shards. */
  @AfterEach void nothingLeftOpen() {
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
  }

  /** Checks that a scan failed with the failure {@link CountingShards#failAfterRows} injects. */
  static void assertInjectedFailure(ShardException e, String shard, int rows) {
    String cause = CountingShards.injectedFailureMessage(shard, rows);
    assertEquals("shard '" + shard + "' failed: " + cause, e.getMessage());
    assertEquals(shard, e.shardName());
    assertInstanceOf(SQLException.class, e.getCause());
    assertEquals(cause, e.getCause().getMessage());
  }
}
