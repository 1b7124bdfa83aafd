package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One transaction over the shards it writes to. Each shard is enlisted on first use: the
 * transaction takes one connection from the shard's pool, turns autocommit off and keeps the
 * connection until it ends. Not thread-safe: one statement at a time writes in it.
 */
public final class ShardTransaction implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardTransaction.class);

  private final TransactionCoordinator coordinator;
  private final Map<String, Enlisted> shards = new LinkedHashMap<>();
  /** What the transaction's writers keep until it ends (tickets of the model version they
   * routed under, say), by their key; closed when it ends, in reverse order. */
  private final Map<Object, AutoCloseable> attachments = new LinkedHashMap<>();
  private State state = State.ACTIVE;

  /** Where a transaction is in its life. */
  public enum State { ACTIVE, COMMITTED, ROLLED_BACK }

  ShardTransaction(TransactionCoordinator coordinator) {
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
  }

  /**
   * The transaction's connection to a shard, enlisting the shard on first use. The caller
   * must not close it, commit it, roll it back or change its autocommit.
   *
   * @throws IllegalStateException if the transaction has ended
   */
  public Connection connection(ShardEndpoint shard) throws SQLException {
    checkActive();
    final Enlisted known = shards.get(shard.name());
    if (known != null) {
      return known.connection;
    }
    final Connection connection = shard.connect();
    try {
      connection.setAutoCommit(false);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection);
      throw e;
    }
    shards.put(shard.name(), new Enlisted(shard, connection));
    return connection;
  }

  /**
   * What the transaction keeps under {@code key} until it ends, created on first use: a
   * writer keeps there what must last as long as the rows it wrote are uncommitted (the
   * ticket that holds a resharding back, say). Closed when the transaction ends, after its
   * shards commit or roll back.
   */
  public <T extends AutoCloseable> T attachment(Object key, Class<T> type,
      Supplier<? extends T> create) {
    checkActive();
    final AutoCloseable known = attachments.get(key);
    if (known != null) {
      return type.cast(known);
    }
    final T created = Objects.requireNonNull(create.get(), "attachment");
    attachments.put(key, created);
    return created;
  }

  /**
   * Closes and forgets what the transaction keeps under {@code key}, if anything: a writer
   * that has written nothing under it yet gives it up (a ticket it must not hold while it
   * waits, say).
   */
  public void release(Object key) {
    final AutoCloseable known = attachments.remove(key);
    if (known != null) {
      try {
        known.close();
      } catch (Exception e) {
        LOG.warn("releasing what a transaction kept failed", e);
      }
    }
  }

  /** The names of the shards enlisted so far, in the order they were. */
  public List<String> shards() {
    return List.copyOf(shards.keySet());
  }

  public State state() {
    return state;
  }

  /** Whether the transaction neither committed nor rolled back yet. */
  public boolean isActive() {
    return state == State.ACTIVE;
  }

  /**
   * Commits the work on every enlisted shard, and returns their connections.
   *
   * @throws SQLException if the transaction could not commit; it is then rolled back
   */
  public void commit() throws SQLException {
    checkActive();
    try {
      for (Enlisted enlisted : shards.values()) {
        enlisted.connection.commit();
      }
      state = State.COMMITTED;
    } catch (SQLException | RuntimeException e) {
      rollback();
      throw e;
    } finally {
      release();
    }
  }

  /** Undoes the work on every enlisted shard and returns their connections; never throws. */
  public void rollback() {
    if (state != State.ACTIVE) {
      return;
    }
    state = State.ROLLED_BACK;
    for (Enlisted enlisted : shards.values()) {
      try {
        enlisted.connection.rollback();
      } catch (SQLException | RuntimeException e) {
        LOG.warn("rolling back on shard {} failed: {}", enlisted.shard.name(),
            enlisted.shard.redact(String.valueOf(e.getMessage())));
      }
    }
    release();
  }

  /** Rolls back unless the transaction ended. */
  @Override public void close() {
    rollback();
  }

  private void release() {
    for (Enlisted enlisted : shards.values()) {
      try {
        enlisted.connection.setAutoCommit(true);
      } catch (SQLException | RuntimeException e) {
        // A broken connection: the pool checks it before handing it out again.
      }
      closeQuietly(enlisted.connection);
    }
    shards.clear();
    final List<AutoCloseable> ending = new ArrayList<>(attachments.values());
    attachments.clear();
    Collections.reverse(ending);
    for (AutoCloseable attachment : ending) {
      try {
        attachment.close();
      } catch (Exception e) {
        LOG.warn("releasing what a transaction kept failed", e);
      }
    }
  }

  private void checkActive() {
    if (state != State.ACTIVE) {
      throw new IllegalStateException("the transaction has " + (state == State.COMMITTED
          ? "committed" : "rolled back"));
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException | RuntimeException e) {
      // Returned to the pool or given up: nothing else to do.
    }
  }

  /** The coordinator that began this transaction. */
  public TransactionCoordinator coordinator() {
    return coordinator;
  }

  /** A shard taking part, and the connection the transaction holds on it. */
  private record Enlisted(ShardEndpoint shard, Connection connection) {
  }
}
