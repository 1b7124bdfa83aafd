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
 */
public record TransactionsSpec(@Nullable String log, boolean bestEffort,
    int recoveryIntervalSeconds) {
  /** The recovery interval when the model sets none. */
  public static final int DEFAULT_RECOVERY_INTERVAL_SECONDS = 60;
  /** What a model without a {@code transactions} object gets. */
  public static final TransactionsSpec DEFAULT =
      new TransactionsSpec(null, false, DEFAULT_RECOVERY_INTERVAL_SECONDS);

  public TransactionsSpec {
    if (recoveryIntervalSeconds < 1) {
      throw new IllegalArgumentException("recoveryIntervalSeconds must be at least 1, got "
          + recoveryIntervalSeconds);
    }
  }

  /** Whether {@link #log} is a JDBC URL rather than a directory. */
  public boolean logIsJdbcUrl() {
    return log != null && log.startsWith("jdbc:");
  }

  @Override public String toString() {
    // A JDBC URL may carry a password.
    return "TransactionsSpec[log=" + (log == null ? "default" : logIsJdbcUrl() ? "jdbc" : log)
        + ", bestEffort=" + bestEffort + ", recoveryIntervalSeconds=" + recoveryIntervalSeconds
        + "]";
  }
}
