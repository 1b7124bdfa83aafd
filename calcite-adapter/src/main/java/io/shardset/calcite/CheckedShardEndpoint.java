package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * A shard's endpoint that, before it hands out its first connection, checks the shard against
 * what the schema took it to be without reading it ({@link ShardAssumptions}): a statement,
 * write or load never reaches a shard whose tables are not what its SQL was written for.
 *
 * <p>A check that passes is not repeated. One that fails is, on the next connection, so that a
 * shard mended meanwhile serves again without reopening anything. A failed check is an
 * {@link SQLException} of {@link #connect()}, as a shard that cannot be reached is, so that
 * every caller reports it as it reports that.
 */
final class CheckedShardEndpoint implements ShardEndpoint {
  private final ShardEndpoint endpoint;
  private final ShardAssumptions assumptions;
  private volatile boolean checked;

  CheckedShardEndpoint(ShardEndpoint endpoint, ShardAssumptions assumptions) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.assumptions = Objects.requireNonNull(assumptions, "assumptions");
  }

  @Override public String name() {
    return endpoint.name();
  }

  @Override public Connection connect() throws SQLException {
    return checked(endpoint.connect());
  }

  @Override public Connection connect(BooleanSupplier stop) throws SQLException {
    return checked(endpoint.connect(stop));
  }

  /**
   * The connection, once the shard is found as taken.
   *
   * @throws SQLException if it is not, or its metadata cannot be read; the connection is then
   *     closed
   */
  private Connection checked(Connection connection) throws SQLException {
    if (checked) {
      return connection;
    }
    try {
      if (!assumptions.isEmpty()) {
        assumptions.check(connection);
      }
      checked = true;
      return connection;
    } catch (Throwable e) {
      try {
        connection.close();
      } catch (SQLException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Whether the shard was checked and found as taken. */
  boolean isChecked() {
    return checked;
  }

  @Override public Connection connectForMonitoring() throws SQLException {
    return endpoint.connectForMonitoring();
  }

  @Override public int fetchSize(int asked) {
    return endpoint.fetchSize(asked);
  }

  @Override public long statementTimeoutMillis() {
    return endpoint.statementTimeoutMillis();
  }

  /** Whether the shard answers, as its pool says: a health check asks whether the shard can
   * be reached, not whether its tables are as the model says, which statements check. */
  @Override public boolean answers(int timeoutSeconds) {
    return endpoint.answers(timeoutSeconds);
  }

  @Override public boolean streamsInTransactionOnly() {
    return endpoint.streamsInTransactionOnly();
  }

  @Override public void abandon(Connection connection, Executor signals) {
    endpoint.abandon(connection, signals);
  }

  @Override public String redact(String message) {
    return endpoint.redact(message);
  }
}
