package io.shardset.model;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * How a schema's writes that span several shards commit: the model operand's
 * {@code transactions} object.
 *
 * @param log where the decision log lives: a JDBC URL ({@code jdbc:...}), or a directory for
 *     an embedded H2 database; null for the default, an H2 database next to the model file
 * @param bestEffort whether a transaction across shards of which one has no two-phase commit
 *     commits shard by shard (not atomic) instead of failing
 * @param recoveryIntervalSeconds how often the shards are checked for transactions left
 *     prepared but unfinished
 * @param deadlockCheckMillis how often the shards' lock waits are read for deadlocks across
 *     shards while transactions wait; 0 for never
 */
public record TransactionsSpec(@Nullable String log, boolean bestEffort,
    int recoveryIntervalSeconds, int deadlockCheckMillis) {
  /** The recovery interval when the model sets none. */
  public static final int DEFAULT_RECOVERY_INTERVAL_SECONDS = 60;
  /** The deadlock check interval when the model sets none. */
  public static final int DEFAULT_DEADLOCK_CHECK_MILLIS = 1000;
  /** What a model without a {@code transactions} object gets. */
  public static final TransactionsSpec DEFAULT = new TransactionsSpec(null, false,
      DEFAULT_RECOVERY_INTERVAL_SECONDS, DEFAULT_DEADLOCK_CHECK_MILLIS);

  public TransactionsSpec {
    if (recoveryIntervalSeconds < 1) {
      throw new IllegalArgumentException("recoveryIntervalSeconds must be at least 1, got "
          + recoveryIntervalSeconds);
    }
    if (deadlockCheckMillis < 0) {
      throw new IllegalArgumentException("deadlockCheckMillis must not be negative, got "
          + deadlockCheckMillis);
    }
  }

  /** Settings with the default deadlock check. */
  public TransactionsSpec(@Nullable String log, boolean bestEffort,
      int recoveryIntervalSeconds) {
    this(log, bestEffort, recoveryIntervalSeconds, DEFAULT_DEADLOCK_CHECK_MILLIS);
  }

  /** Whether {@link #log} is a JDBC URL rather than a directory. */
  public boolean logIsJdbcUrl() {
    return log != null && log.startsWith("jdbc:");
  }

  @Override public String toString() {
    // A JDBC URL may carry a password.
    return "TransactionsSpec[log=" + (log == null ? "default" : logIsJdbcUrl() ? "jdbc" : log)
        + ", bestEffort=" + bestEffort + ", recoveryIntervalSeconds=" + recoveryIntervalSeconds
        + ", deadlockCheckMillis=" + deadlockCheckMillis + "]";
  }
}
