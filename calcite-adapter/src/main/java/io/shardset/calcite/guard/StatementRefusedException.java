package io.shardset.calcite.guard;

import java.util.Objects;

/**
 * A statement ShardSet refuses before it reaches any shard: a hint it cannot follow, or a
 * scatter its guardrail denies. The message names what is wrong and how to proceed; the
 * SQLState is what JDBC clients get.
 */
public final class StatementRefusedException extends RuntimeException {
  /** SQLState of a statement over a limit: SQL's "program limit exceeded". */
  public static final String LIMIT_EXCEEDED = "54000";
  /** SQLState of a statement whose text ShardSet cannot follow. */
  public static final String INVALID_STATEMENT = "42000";

  private static final long serialVersionUID = 1L;

  private final String sqlState;

  public StatementRefusedException(String message, String sqlState) {
    super(Objects.requireNonNull(message, "message"));
    this.sqlState = Objects.requireNonNull(sqlState, "sqlState");
  }

  /** The SQLState clients get. */
  public String sqlState() {
    return sqlState;
  }
}
