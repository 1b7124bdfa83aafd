package io.shardset.execution;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/** A shard that queries can be sent to. */
public interface ShardEndpoint {
  /** The shard's name, as the model spells it; error messages use it. */
  String name();

  /** Returns a pooled connection to the shard; closing it returns it to the pool. */
  Connection connect() throws SQLException;

  /**
   * Returns a pooled connection as {@link #connect()} does, but stops waiting for one, with an
   * {@link SQLException}, as soon as {@code stop} says the caller no longer needs it.
   */
  default Connection connect(BooleanSupplier stop) throws SQLException {
    return connect();
  }

  /**
   * A connection for watching the shard (reading its lock waits, cancelling a statement of
   * another session) that does not wait behind the statements of a busy pool; the caller
   * closes it. By default a pooled one.
   */
  default Connection connectForMonitoring() throws SQLException {
    return connect();
  }

  /** The longest any statement may run on the shard, in milliseconds; 0 for no limit. */
  default long statementTimeoutMillis() {
    return 0;
  }

  /**
   * Whether the shard's driver streams a result (honours the fetch size) only inside a
   * transaction, as PostgreSQL's does; a scan then turns autocommit off while it reads, which
   * costs a round trip to end the transaction.
   */
  default boolean streamsInTransactionOnly() {
    return false;
  }

  /**
   * The fetch size a scan's statement on this endpoint uses when it asks for {@code asked}:
   * that, unless the endpoint's connections cannot stream a result while another statement
   * uses them (0 then: the driver reads the whole result at once).
   */
  default int fetchSize(int asked) {
    return asked;
  }

  /**
   * Gives up a connection {@link #connect()} returned whose shard does not answer: closes its
   * socket without waiting for the shard, so that a thread blocked reading from it fails, and
   * keeps it from being used again. The thread that uses the connection still closes it.
   *
   * @param signals the executor the abort runs its work on, so that the caller never waits
   */
  default void abandon(Connection connection, Executor signals) {
    try {
      connection.abort(signals);
    } catch (SQLException | RuntimeException e) {
      // Aborting is a last resort; the connection's own timeouts remain.
    }
  }

  /**
   * Whether the shard answers now: a connection of its pool is valid within
   * {@code timeoutSeconds}. A failure to connect is an answer too (false), never an exception.
   */
  default boolean answers(int timeoutSeconds) {
    try (Connection connection = connect()) {
      return connection.isValid(timeoutSeconds);
    } catch (SQLException | RuntimeException e) {
      return false;
    }
  }

  /** Returns the message with this shard's secrets (password) removed. */
  String redact(String message);
}
