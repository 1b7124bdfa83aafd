package io.shardset.calcite;

import io.shardset.execution.LastingScheduler;
import io.shardset.execution.ScanServices;

import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.linq4j.Enumerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * The shard scans each JDBC connection has open, by statement, so that closing the statement or
 * the connection closes them, and with them their shard statements and connections.
 *
 * <p>Calcite closes a scan only through the ResultSet that reads it: closing a Connection
 * leaves the scans of its unclosed ResultSets open, and an error above the shards (a sort or a
 * join running out of memory) may leave the scans below it open with no ResultSet at all.
 * {@code jdbc:shardset:} connections report their own and their statements' closing (see
 * {@code ShardSetDriver}); for every connection, a daemon thread also looks every
 * {@value #SWEEP_MILLIS} ms for closed connections and statements that still have scans.
 *
 * <p>A scan learns its statement from the cancel flag that Calcite gives each statement and
 * hands to its executions in the DataContext. One registry serves a whole runtime
 * ({@link ShardSetRuntime#openScans()}), not a schema: Calcite gives a scan no object that
 * lives as long as its connection, so the scans are found by connection. The plan hands the
 * registry to its scans as a constant, from the table it scans ({@link ShardTable#openScans()}),
 * and the scans take from it the runtime's threads they run on ({@link #services()}).
 */
public final class OpenScans implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OpenScans.class);

  /** The statement id of a scan whose statement is not known. */
  private static final int NONE = -1;

  /** How often the sweeper looks for closed connections and statements. */
  static final long SWEEP_MILLIS = 250;

  /** Open scans by connection (by identity: the DataContext's query provider). */
  private final Map<Object, ConnectionScans> open = new ConcurrentHashMap<>();

  private final ScheduledExecutorService sweeper = new LastingScheduler("shardset-scan-sweeper");

  private final ScanServices services;

  /** Creates a registry with no scan, and starts its sweeper. */
  OpenScans(ScanServices services) {
    this.services = Objects.requireNonNull(services, "services");
    sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_MILLIS, SWEEP_MILLIS,
        TimeUnit.MILLISECONDS);
  }

  /** The threads of the runtime that the tracked scans run on. */
  public ScanServices services() {
    return services;
  }

  /** Returns the scan, tracked as one of its statement's and connection's until it closes. */
  public Enumerator<Object[]> track(DataContext root, Enumerator<Object[]> scan) {
    final Object connection = root.getQueryProvider();
    if (connection == null) {
      return scan;
    }
    final Object flag = DataContext.Variable.CANCEL_FLAG.get(root);
    final int statement = flag instanceof AtomicBoolean b ? statementId(connection, b) : NONE;
    if (statement == NONE && flag instanceof AtomicBoolean
        && connection instanceof AvaticaConnection) {
      // Its statement closed while it executed, before the scan started (a server closes a
      // statement whose client's timeout is up): nothing would close the scan later.
      scan.close();
      return scan;
    }
    final Owned owned = new Owned(scan, connection, statement);
    open.compute(connection, (key, scans) -> {
      final ConnectionScans known = scans == null ? new ConnectionScans(key) : scans;
      known.add(owned);
      return known;
    });
    return owned;
  }

  /** Closes the scans of a statement that closed, known by its handle's id. */
  public void statementClosed(Connection connection, int statementId) {
    final ConnectionScans scans = open.get(connection);
    if (scans != null) {
      scans.closeStatement(statementId);
    }
  }

  /** Closes every scan of a connection that closed. */
  public void connectionClosed(Connection connection) {
    final ConnectionScans scans = open.get(connection);
    if (scans != null) {
      scans.closeAll();
    }
  }

  /** Returns the number of scans open in this registry. */
  public int openScans() {
    int count = 0;
    for (ConnectionScans scans : open.values()) {
      count += scans.size();
    }
    return count;
  }

  /** Stops the sweeper and closes every scan still open. */
  @Override public void close() {
    sweeper.shutdownNow();
    for (ConnectionScans scans : List.copyOf(open.values())) {
      scans.closeAll();
    }
  }

  private void sweep() {
    for (ConnectionScans scans : List.copyOf(open.values())) {
      try {
        scans.sweep();
      } catch (RuntimeException e) {
        // The sweeper must outlive any one connection's failure.
        LOG.debug("closing the scans of a closed connection failed", e);
      }
    }
  }

  /** The id of the open statement whose cancel flag this is, or {@link #NONE}. */
  private static int statementId(Object connection, AtomicBoolean flag) {
    if (!(connection instanceof AvaticaConnection avatica)) {
      return NONE;
    }
    for (AvaticaStatement statement : List.copyOf(avatica.statementMap.values())) {
      try {
        if (avatica.getCancelFlag(statement.handle) == flag) {
          return statement.handle.id;
        }
      } catch (NoSuchStatementException e) {
        // Closed meanwhile.
      }
    }
    return NONE;
  }

  /** The open scans of one connection. */
  private static final class ConnectionScans {
    private final Object connection;
    // Guarded by this.
    private final Set<Owned> scans = Collections.newSetFromMap(new IdentityHashMap<>());

    ConnectionScans(Object connection) {
      this.connection = connection;
    }

    synchronized void add(Owned scan) {
      scans.add(scan);
    }

    /** Forgets a scan; returns whether none is left. */
    synchronized boolean remove(Owned scan) {
      scans.remove(scan);
      return scans.isEmpty();
    }

    synchronized int size() {
      return scans.size();
    }

    void closeStatement(int statementId) {
      close(select(scan -> scan.statement == statementId));
    }

    void closeAll() {
      close(select(scan -> true));
    }

    /** Closes every scan when the connection closed, else those of closed statements. */
    void sweep() {
      if (isClosed()) {
        closeAll();
        return;
      }
      if (connection instanceof AvaticaConnection avatica) {
        close(select(scan -> scan.statement != NONE
            && !avatica.statementMap.containsKey(scan.statement)));
      }
    }

    private boolean isClosed() {
      try {
        return connection instanceof Connection c && c.isClosed();
      } catch (SQLException e) {
        return false;
      }
    }

    private synchronized List<Owned> select(Predicate<Owned> which) {
      return scans.stream().filter(which).toList();
    }

    private static void close(List<Owned> scans) {
      for (Owned scan : scans) {
        try {
          scan.close();
        } catch (RuntimeException e) {
          LOG.debug("closing an orphaned shard scan failed", e);
        }
      }
    }
  }

  /** A scan as its statement and connection own it: closing it forgets it. */
  private final class Owned implements Enumerator<Object[]> {
    private final Enumerator<Object[]> scan;
    private final Object connection;
    /** The id of the statement's handle, or {@link #NONE}. */
    private final int statement;
    private final AtomicBoolean closed = new AtomicBoolean();

    Owned(Enumerator<Object[]> scan, Object connection, int statement) {
      this.scan = scan;
      this.connection = connection;
      this.statement = statement;
    }

    @Override public Object[] current() {
      return scan.current();
    }

    @Override public boolean moveNext() {
      return scan.moveNext();
    }

    @Override public void reset() {
      scan.reset();
    }

    /** Closes the scan once; safe from any thread, as the scans themselves are. */
    @Override public void close() {
      if (closed.compareAndSet(false, true)) {
        try {
          scan.close();
        } finally {
          open.computeIfPresent(connection, (key, scans) -> scans.remove(this) ? null : scans);
        }
      }
    }
  }
}
