package io.shardset.transaction;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.execution.ShardEndpoint;
import io.shardset.testing.TestPools;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A coordinator process for tests that kill it: writes id 1 into table t of every shard in
 * one transaction, commits it, and at the named step prints {@code STOPPED <gid>} and waits
 * to be killed.
 *
 * <p>Arguments: the decision log's H2 file, the step ({@code prepared} or {@code decided}),
 * then one {@code name|jdbcUrl|user} per shard.
 */
final class CoordinatorProcess {
  /** What the process prints when it stopped at the step. */
  static final String STOPPED = "STOPPED ";

  private CoordinatorProcess() {
  }

  public static void main(String[] args) throws SQLException, InterruptedException {
    final String step = args[1];
    final Map<String, ShardEndpoint> shards = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      final String[] parts = args[i].split("\\|", 3);
      shards.put(parts[0], TestPools.pools().endpoint(
          new ShardConnectionSettings(parts[0], parts[1], parts[2], "", null, 2)));
    }
    final Object forever = new Object();
    final Steps stop = new Steps() {
      @Override public void prepared(GlobalId id) {
        if (step.equals("prepared")) {
          stopHere(id);
        }
      }

      @Override public void decided(GlobalId id) {
        if (step.equals("decided")) {
          stopHere(id);
        }
      }

      private void stopHere(GlobalId id) {
        System.out.println(STOPPED + id);
        System.out.flush();
        synchronized (forever) {
          while (true) {
            try {
              forever.wait();
            } catch (InterruptedException e) {
              // Only killing ends it.
            }
          }
        }
      }
    };
    final TransactionCoordinator coordinator = new TransactionCoordinator(
        TxShards.settings(args[0].startsWith("jdbc:") ? LogDatabase.jdbcUrl(args[0])
            : LogDatabase.h2File(Path.of(args[0])), false), shards, stop, false);
    final ShardTransaction transaction = coordinator.begin();
    for (ShardEndpoint shard : shards.values()) {
      try (Statement s = transaction.connection(shard).createStatement()) {
        s.executeUpdate("insert into t values (1)");
      }
    }
    transaction.commit();
    System.out.println("COMMITTED without stopping");
  }
}
