package io.shardset.cli.server;

import io.shardset.calcite.guard.AuditLog;

import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.jdbc.AccessibleJdbcResultSet;
import org.apache.calcite.avatica.jdbc.AccessibleStatementInfo;
import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.apache.calcite.avatica.jdbc.StatementInfo;
import org.apache.calcite.avatica.proto.Requests;
import org.apache.calcite.avatica.remote.TypedValue;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Avatica's JDBC-backed {@code Meta} for a ShardSet model that opens every remote connection
 * with the server's properties and only the client properties {@link ClientProperties} allows,
 * closes connections and statements a client left unused for the idle timeout (a client that
 * vanished never closes them, and they hold shard connections), and logs each statement a
 * client prepares or runs at debug level.
 *
 * <p>A user who may not write ({@link Caller}) gets a read-only connection, whose writes
 * ShardSet refuses, and cannot make it writable: {@code setReadOnly(false)} leaves it
 * read-only, as {@code isReadOnly()} then says. The server does not refuse the call with an
 * error because Avatica's client sends it late, with its next call of any kind, and sends it
 * again with every call after: a refusal would fail the client's next query, and every one
 * after, rather than the call that asked; and pools that reset read-only on every borrow
 * could not serve the user at all.
 */
final class ShardSetMeta extends JdbcMeta implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardSetMeta.class);
  /** Rows read from a result at a time when it is read ahead of its client. */
  private static final int READ_AHEAD_ROWS = 1_000;

  private final Properties server;
  private final Caller.Current callers;
  /** Evicts what expired: Avatica's caches only evict when they are used. */
  private final ScheduledExecutorService cleaner;
  /** Statements running a call now, which are in use however long the call takes. */
  private final Map<InUse, Integer> running = new ConcurrentHashMap<>();
  /**
   * The user who opened each connection, by its id: Avatica's own {@code JdbcMeta} finds a
   * statement by its number alone (numbers count up from 1, across connections), and would
   * run, read or close another user's statement for anyone who names it.
   */
  private final Map<String, Owner> owners = new ConcurrentHashMap<>();
  /** The audit trail of sessions. */
  private final AuditLog audit;

  /** Who opened a connection, and from where. */
  private record Owner(String user, String address) {
  }

  /** The query timeout of every statement, in seconds; 0 for none. */
  private final int statementTimeoutSeconds;

  /** How results are read ahead of their clients. */
  private final ResultSpooling spooling;
  /** What every statement's rows read ahead keep in memory, in bytes. */
  private final AtomicLong spoolMemory = new AtomicLong();
  /** The rows read ahead of each statement's client, by statement id. */
  private final Map<Integer, Spooled> spools = new ConcurrentHashMap<>();
  /** The threads that read results ahead, one per result being read, ending when idle. */
  private final ExecutorService readers = Executors.newCachedThreadPool(runnable -> {
    final Thread thread = new Thread(runnable, "shardset-read-ahead");
    thread.setDaemon(true);
    return thread;
  });
  /**
   * The statements whose results are still read from the shards as their clients fetch, by
   * id, with when their client last asked for rows ({@link System#nanoTime()}).
   */
  private final Map<InUse, Long> streaming = new ConcurrentHashMap<>();

  ShardSetMeta(String url, Properties server, Duration idleTimeout, Duration statementTimeout,
      ResultSpooling spooling, Caller.Current callers, AuditLog audit) throws SQLException {
    super(url, withExpiry(server, idleTimeout));
    this.audit = audit;
    this.spooling = spooling;
    this.server = copy(server);
    this.statementTimeoutSeconds = (int) statementTimeout.getSeconds();
    this.callers = callers;
    this.cleaner = Executors.newSingleThreadScheduledExecutor(runnable -> {
      final Thread thread = new Thread(runnable, "shardset-server-idle-cleaner");
      thread.setDaemon(true);
      return thread;
    });
    final long period = Math.max(100, Math.min(1_000, idleTimeout.toMillis() / 4));
    cleaner.scheduleWithFixedDelay(this::cleanUp, period, period, TimeUnit.MILLISECONDS);
  }

  private static Properties copy(Properties properties) {
    final Properties copy = new Properties();
    copy.putAll(properties);
    return copy;
  }

  /** The properties with Avatica's connection and statement cache expiry set. */
  private static Properties withExpiry(Properties server, Duration idleTimeout) {
    final Properties properties = copy(server);
    final String millis = String.valueOf(idleTimeout.toMillis());
    properties.setProperty(ConnectionCacheSettings.EXPIRY_DURATION.key(), millis);
    properties.setProperty(ConnectionCacheSettings.EXPIRY_UNIT.key(),
        TimeUnit.MILLISECONDS.name());
    properties.setProperty(StatementCacheSettings.EXPIRY_DURATION.key(), millis);
    properties.setProperty(StatementCacheSettings.EXPIRY_UNIT.key(),
        TimeUnit.MILLISECONDS.name());
    return properties;
  }

  /**
   * Closes expired connections and statements; closing a connection closes its statements and
   * their shard scans.
   */
  private void cleanUp() {
    try {
      closeUnfetched();
      for (InUse statement : running.keySet()) {
        getConnectionCache().getIfPresent(statement.connectionId());
        getStatementCache().getIfPresent(statement.id());
      }
      getStatementCache().cleanUp();
      getConnectionCache().cleanUp();
      // Not an access: a spool does not keep its statement from expiring.
      for (Integer id : spools.keySet()) {
        if (!getStatementCache().asMap().containsKey(id)) {
          dropSpool(id);
        }
      }
      for (Map.Entry<String, Owner> owner : owners.entrySet()) {
        if (!getConnectionCache().asMap().containsKey(owner.getKey())
            && owners.remove(owner.getKey(), owner.getValue())) {
          audit.closed(owner.getKey(), owner.getValue().user(), owner.getValue().address(),
              "idle timeout");
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("closing idle remote connections failed", e);
    }
  }

  /**
   * Closes the statements whose results still hold shard connections and whose clients have
   * not asked for rows for the fetch timeout: a client that vanished mid-result releases its
   * shards within seconds, not the idle timeout's minutes.
   */
  private void closeUnfetched() {
    final long now = System.nanoTime();
    final long limit = spooling.fetchTimeout().toNanos();
    for (Map.Entry<InUse, Long> entry : streaming.entrySet()) {
      final InUse statement = entry.getKey();
      if (now - entry.getValue() < limit || running.containsKey(statement)) {
        continue;
      }
      if (streaming.remove(statement, entry.getValue())) {
        LOG.info("statement {} of connection {} closed: its client fetched no rows for {} ms,"
            + " and its result held shard connections", statement.id(),
            statement.connectionId(), spooling.fetchTimeout().toMillis());
        getStatementCache().invalidate(statement.id());
      }
    }
  }

  /** Opens the connection, read-only when the user who opens it may not write, and with the
   * scatter limit of the user's role. */
  @Override protected Connection createConnection(String url, Properties info)
      throws SQLException {
    final Caller caller = callers.get();
    final Properties properties = SessionProperties.of(server, info, caller);
    return SessionProperties.forCaller(super.createConnection(url, properties), caller);
  }

  /** Keeps the connection of a user who may not write read-only. */
  @Override public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties properties) {
    final Caller caller = callers.get();
    if (Boolean.FALSE.equals(properties.isReadOnly()) && !caller.mayWrite()) {
      LOG.debug("connection {} stays read-only: {}", ch.id, caller.whyNot());
      properties.setReadOnly(true);
    }
    return super.connectionSync(ch, properties);
  }

  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    LOG.debug("connection {} prepares: {}", ch.id, sql);
    checkOwner(ch.id);
    return super.prepare(ch, sql, maxRowCount);
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    LOG.debug("connection {} runs: {}", h.connectionId, sql);
    checkOwner(h);
    begin(h);
    try {
      limit(h);
      dropSpool(h.id);
      return readAhead(h,
          super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback));
    } finally {
      end(h);
    }
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    checkOwner(h);
    begin(h);
    try {
      limit(h);
      dropSpool(h.id);
      return readAhead(h, super.execute(h, parameterValues, maxRowsInFirstFrame));
    } finally {
      end(h);
    }
  }

  /** A client reading a long result uses its connection too, which must not expire. */
  @Override public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    checkOwner(h);
    begin(h);
    try {
      final Frame spooled = fromSpool(h, offset, fetchMaxRowCount);
      final Frame frame = spooled != null ? spooled : super.fetch(h, offset, fetchMaxRowCount);
      final InUse statement = new InUse(h.connectionId, h.id);
      if (frame.done) {
        streaming.remove(statement);
      } else {
        streaming.computeIfPresent(statement, (s, last) -> System.nanoTime());
      }
      return frame;
    } catch (RuntimeException e) {
      // Classified here, not only by RemoteErrorService: Avatica's LocalService answers a
      // fetch that fails with a NullPointerException as if the statement were gone.
      throw RemoteErrors.withSqlState(e);
    } finally {
      end(h);
    }
  }

  @Override public void openConnection(ConnectionHandle ch, Map<String, String> info) {
    super.openConnection(ch, info);
    final Caller caller = callers.get();
    owners.put(ch.id, new Owner(caller.user(), caller.address()));
    audit.opened(ch.id, caller.user(), caller.address());
  }

  @Override public void closeConnection(ConnectionHandle ch) {
    checkOwner(ch.id);
    try {
      super.closeConnection(ch);
    } finally {
      final Owner owner = owners.remove(ch.id);
      if (owner != null) {
        audit.closed(ch.id, owner.user(), owner.address(), "closed by the client");
      }
    }
  }

  @Override public StatementHandle createStatement(ConnectionHandle ch) {
    checkOwner(ch.id);
    return super.createStatement(ch);
  }

  @Override public void commit(ConnectionHandle ch) {
    checkOwner(ch.id);
    super.commit(ch);
  }

  @Override public void rollback(ConnectionHandle ch) {
    checkOwner(ch.id);
    super.rollback(ch);
  }

  /** Closes the caller's own statement; another's stays open, as if it were not there. */
  @Override public void closeStatement(StatementHandle h) {
    try {
      checkOwner(h);
    } catch (NoSuchStatementException e) {
      LOG.debug("connection {} may not close statement {}", h.connectionId, h.id);
      return;
    }
    try {
      super.closeStatement(h);
    } finally {
      dropSpool(h.id);
      streaming.remove(new InUse(h.connectionId, h.id));
    }
  }

  /**
   * Reads the rest of each result past its first frame into a spool, on a thread of its own,
   * so that the shard statements behind it end, and their connections go back to the pools,
   * at the shards' pace while the client reads its first rows: a client that reads slowly, or
   * vanishes, holds them only as long as the shards take. A result that fits its first frame
   * is closed already; one larger than the spool's limit keeps its remaining rows on the
   * shards, read as the client fetches them.
   */
  private ExecuteResult readAhead(StatementHandle h, ExecuteResult result) {
    final InUse statement = new InUse(h.connectionId, h.id);
    streaming.remove(statement);
    for (MetaResultSet set : result.resultSets) {
      if (set.firstFrame == null || set.firstFrame.done) {
        continue;
      }
      if (!spooling.enabled()) {
        streaming.put(statement, System.nanoTime());
        continue;
      }
      final StatementInfo info = getStatementCache().getIfPresent(h.id);
      final ResultSet results = info == null ? null : info.getResultSet();
      if (results == null) {
        continue;
      }
      final long first = count(set.firstFrame.rows);
      final ResultSpool spool = new ResultSpool(spooling, spoolMemory);
      spools.put(h.id, new Spooled(spool, first));
      readers.execute(() -> readInto(spool, statement, results, first));
    }
    return result;
  }

  /**
   * The reader: the result's rows from {@code first} on into the spool, until the result ends,
   * the spool reaches its limit (the statement then streams, and the fetch timeout watches
   * it), the spool closes, or the result fails (reported by the fetch that reaches it). It
   * reads the result set it was given, never the statement's next one.
   */
  private void readInto(ResultSpool spool, InUse statement, ResultSet results, long first) {
    // In use while it reads: the idle cleaner leaves the statement alone.
    running.merge(statement, 1, Integer::sum);
    try {
      long offset = first;
      while (spool.hasRoom() && !spool.isClosed()) {
        final Frame frame = AccessibleJdbcResultSet.frame(this, null, results, offset,
            READ_AHEAD_ROWS);
        offset += spool.add(frame.rows);
        if (frame.done) {
          spool.complete();
          LOG.debug("statement {}: {} rows read ahead of the client ({} bytes{})",
              statement.id(), spool.rows(), spool.bytes(),
              spool.spilled() ? ", partly in a file" : "");
          return;
        }
      }
      if (!spool.isClosed()) {
        streaming.put(statement, System.nanoTime());
        spool.stop();
        LOG.debug("statement {}: {} rows read ahead of the client; the rest stays on the"
            + " shards", statement.id(), spool.rows());
      }
    } catch (SQLException | IOException | RuntimeException | Error e) {
      if (!spool.isClosed()) {
        spool.fail(e);
      }
    } finally {
      running.computeIfPresent(statement, (s, calls) -> calls == 1 ? null : calls - 1);
    }
  }

  /** The rows of a fetch from the statement's spool; null when they are not there. */
  private @Nullable Frame fromSpool(StatementHandle h, long offset, int max) {
    final Spooled spooled = spools.get(h.id);
    if (spooled == null) {
      return null;
    }
    final long index = offset - spooled.firstRow();
    final ResultSpool spool = spooled.spool();
    if (index < 0) {
      return null;
    }
    try {
      spool.await(index);
      if (index >= spool.rows()) {
        final Throwable failure = spool.failure();
        if (failure != null) {
          dropSpool(h.id);
          throw RemoteErrors.withSqlState(failure instanceof RuntimeException r ? r
              : new RuntimeException(failure.getMessage(), failure));
        }
        if (!spool.isComplete()) {
          return null; // past the rows read ahead: on to the shards
        }
      }
      final List<Object> rows = spool.read(index, max < 0 ? Integer.MAX_VALUE : max);
      final boolean done = spool.isComplete() && index + rows.size() >= spool.rows();
      if (done) {
        dropSpool(h.id);
      }
      return new Frame(offset, done, rows);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the rows of statement " + h.id
          + " read ahead of its client", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the rows of statement "
          + h.id, e);
    }
  }

  private static long count(Iterable<Object> rows) {
    long count = 0;
    for (Object ignored : rows) {
      count++;
    }
    return count;
  }

  private void dropSpool(int statementId) {
    final Spooled spooled = spools.remove(statementId);
    if (spooled != null) {
      spooled.spool().close();
    }
  }

  /** A statement's spool, which holds its rows from {@code firstRow} on. */
  private record Spooled(ResultSpool spool, long firstRow) {
  }

  @Override public boolean syncResults(StatementHandle h, QueryState state, long offset)
      throws NoSuchStatementException {
    checkOwner(h);
    return super.syncResults(h, state, offset);
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h,
      List<String> sqlCommands) throws NoSuchStatementException {
    checkOwner(h);
    return super.prepareAndExecuteBatch(h, sqlCommands);
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    checkOwner(h);
    return super.executeBatch(h, parameterValues);
  }

  @Override public ExecuteBatchResult executeBatchProtobuf(StatementHandle h,
      List<Requests.UpdateBatch> updateBatches) throws NoSuchStatementException {
    checkOwner(h);
    return super.executeBatchProtobuf(h, updateBatches);
  }

  /** Refuses a connection that another user opened, as if it did not exist. */
  private void checkOwner(String connectionId) {
    final Owner owner = owners.get(connectionId);
    if (owner != null && !owner.user().equals(callers.get().user())) {
      throw new NoSuchConnectionException(connectionId);
    }
  }

  /**
   * Refuses a statement that is not the named connection's, or a connection that another user
   * opened, as if the statement did not exist.
   */
  private void checkOwner(StatementHandle h) throws NoSuchStatementException {
    try {
      checkOwner(h.connectionId);
    } catch (NoSuchConnectionException e) {
      throw new NoSuchStatementException(h);
    }
    final StatementInfo info = getStatementCache().getIfPresent(h.id);
    final Statement statement = info == null ? null : AccessibleStatementInfo.statement(info);
    if (statement == null) {
      return;
    }
    final Connection connection = getConnectionCache().getIfPresent(h.connectionId);
    try {
      if (connection == null || statement.getConnection() != connection) {
        throw new NoSuchStatementException(h);
      }
    } catch (SQLException e) {
      throw new NoSuchStatementException(h);
    }
  }

  /**
   * Gives a statement the server's query timeout before it runs: Avatica's protocol does not
   * carry the one its client set, and ShardSet stops a statement when its timeout is up,
   * shard statements included.
   */
  private void limit(StatementHandle h) {
    if (statementTimeoutSeconds == 0) {
      return;
    }
    final StatementInfo info = getStatementCache().getIfPresent(h.id);
    final Statement statement = info == null ? null : AccessibleStatementInfo.statement(info);
    if (statement != null) {
      try {
        statement.setQueryTimeout(statementTimeoutSeconds);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Marks the statement and its connection in use until {@link #end}. */
  private void begin(StatementHandle h) {
    running.merge(new InUse(h.connectionId, h.id), 1, Integer::sum);
    getConnectionCache().getIfPresent(h.connectionId);
  }

  private void end(StatementHandle h) {
    running.computeIfPresent(new InUse(h.connectionId, h.id),
        (statement, calls) -> calls == 1 ? null : calls - 1);
  }

  /** A statement of a connection, as the server's caches know them. */
  private record InUse(String connectionId, int id) {
  }

  /** Stops closing idle connections, and drops every spool; the server is stopping. */
  @Override public void close() {
    cleaner.shutdownNow();
    readers.shutdownNow();
    for (Integer id : spools.keySet()) {
      dropSpool(id);
    }
  }
}
