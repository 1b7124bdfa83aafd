package io.shardset.calcite.jdbc;

import io.shardset.calcite.guard.ActivitySettings;
import io.shardset.calcite.guard.AuditLog;
import io.shardset.calcite.guard.SlowStatementLog;
import io.shardset.calcite.relations.MetadataColumn;
import io.shardset.calcite.relations.RelationRows;
import io.shardset.execution.StatementTracker;
import io.shardset.execution.TrackedStatement;
import io.shardset.session.GeneratedKeys;
import io.shardset.session.IsolationLevels;
import io.shardset.session.KeyRequest;
import io.shardset.session.SavepointStatement;
import io.shardset.session.SessionOwner;
import io.shardset.session.ShardSession;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.AccessibleCalciteMeta;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaColumnFactory;
import org.apache.calcite.jdbc.CalciteMetaTableFactory;
import org.apache.calcite.schema.SchemaPlus;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Calcite's metadata and statement handling for a {@code jdbc:shardset:} connection, with the
 * transactions JDBC clients expect, kept by the connection's {@link ShardSession}: autocommit
 * on when the connection opens, {@code commit()} and {@code rollback()} ending the
 * transaction its statements opened, savepoints, isolation levels, a read-only mode that
 * refuses writes. Turning autocommit on commits what is open, as JDBC says. A statement that
 * fails inside a transaction aborts it (see {@link ShardSession}).
 *
 * <p>Avatica's {@code Meta} declares no {@code SQLException}, but the connection methods that
 * call it ({@code commit()}, {@code setAutoCommit}, {@code setReadOnly},
 * {@code setTransactionIsolation}) do: this class throws its SQLExceptions through them
 * unwrapped ({@link #raise}), so that a client gets the SQLException, and its SQLState, that
 * JDBC promises rather than an unchecked exception.
 */
final class ShardSetMeta extends AccessibleCalciteMeta implements SessionOwner, StatementKeys {
  private final ShardSession session;
  private final AvaticaConnection connection;
  private final ActivitySettings activity;
  private final String user;
  /** The audit trail of the connection's writes, and the address of its client, if any. */
  private final AuditLog audit;
  private final @Nullable String address;
  private final StatementTracker tracker;
  /**
   * Executions whose rows are not yet made, by statement id: a query's rows are made after
   * {@link #execute} returns, and they end the execution's tracking when closed.
   */
  private final Map<Integer, TrackedStatement> awaitingRows = new ConcurrentHashMap<>();
  /** The generated keys statements ask for, by statement id. */
  private final Map<Integer, KeyRequest> keyRequests = new ConcurrentHashMap<>();
  /** The generated keys of each statement's last execution that asked for them. */
  private final Map<Integer, GeneratedKeys> generatedKeys = new ConcurrentHashMap<>();

  ShardSetMeta(AvaticaConnection connection, CalciteMetaTableFactory tables,
      CalciteMetaColumnFactory columns, StatementTracker tracker) {
    super(connection, tables, columns);
    this.connection = connection;
    this.activity = ActivitySettings.of(
        ((CalciteConnection) connection).getProperties());
    this.user = ((CalciteConnection) connection).getProperties().getProperty("user", "sa");
    this.audit = AuditLog.of(Boolean.parseBoolean(((CalciteConnection) connection)
        .getProperties().getProperty(AuditLog.PROPERTY, "false").trim()));
    this.address = ((CalciteConnection) connection).getProperties()
        .getProperty(AuditLog.ADDRESS);
    this.tracker = Objects.requireNonNull(tracker, "tracker");
    this.session = new ShardSession(user);
    connProps.setAutoCommit(true);
    connProps.setTransactionIsolation(session.isolation());
    connProps.setDirty(false);
  }

  /** Whether a batch runs: its statements are not tracked one by one. */
  private volatile boolean inBatch;

  /** The connection's session. */
  @Override public ShardSession session() {
    return session;
  }

  /** Checks every change before making any, so that a refused call changes nothing. */
  @Override public ConnectionProperties connectionSync(ConnectionHandle ch,
      ConnectionProperties properties) {
    try {
      final Integer isolation = properties.getTransactionIsolation();
      if (isolation != null) {
        properties.setTransactionIsolation(session.setIsolation(isolation));
      }
      final Boolean readOnly = properties.isReadOnly();
      if (readOnly != null) {
        session.setReadOnly(readOnly);
      }
      final Boolean autoCommit = properties.isAutoCommit();
      if (autoCommit != null) {
        session.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw ClientErrors.raise(e);
    }
    return super.connectionSync(ch, properties);
  }

  /**
   * What the metadata says of the connection's defaults: READ COMMITTED, where Avatica's
   * default says NONE (remote clients read it from here too).
   */
  @Override public Map<DatabaseProperty, Object> getDatabaseProperties(ConnectionHandle ch) {
    final Map<DatabaseProperty, Object> properties = new EnumMap<>(DatabaseProperty.class);
    properties.putAll(super.getDatabaseProperties(ch));
    properties.put(DatabaseProperty.GET_DEFAULT_TRANSACTION_ISOLATION,
        IsolationLevels.DEFAULT);
    return properties;
  }

  @Override public void commit(ConnectionHandle ch) {
    try {
      session.commit();
    } catch (SQLException e) {
      throw ClientErrors.raise(e);
    }
  }

  @Override public void rollback(ConnectionHandle ch) {
    session.rollback();
  }

  /**
   * The primary key of each ShardSet table whose shards all declare the same one (the table
   * layout keeps it; the writes find rows by it), as {@code DatabaseMetaData.getPrimaryKeys}
   * lists keys: {@code schema} and {@code table} are names, not patterns; null matches every
   * one. Calcite itself lists none. See {@link RelationRows}.
   */
  @Override public MetaResultSet getPrimaryKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    return result(RelationRows.PRIMARY_KEY_COLUMNS,
        RelationRows.primaryKeys(rootSchema(), schema, table));
  }

  /** The foreign keys of {@code schema.table} that its shards declare alike, by the table
   * they reference; Calcite lists none. */
  @Override public MetaResultSet getImportedKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    return foreignKeys(null, null, schema, table, RelationRows.IMPORTED_KEY_ORDER);
  }

  /** The foreign keys that reference {@code schema.table}, by the table they belong to. */
  @Override public MetaResultSet getExportedKeys(ConnectionHandle ch, String catalog,
      String schema, String table) {
    return foreignKeys(schema, table, null, null, RelationRows.EXPORTED_KEY_ORDER);
  }

  /** The foreign keys of the foreign table that reference the parent table. */
  @Override public MetaResultSet getCrossReference(ConnectionHandle ch, String parentCatalog,
      String parentSchema, String parentTable, String foreignCatalog, String foreignSchema,
      String foreignTable) {
    return foreignKeys(parentSchema, parentTable, foreignSchema, foreignTable,
        RelationRows.EXPORTED_KEY_ORDER);
  }

  private MetaResultSet foreignKeys(String pkSchema, String pkTable, String fkSchema,
      String fkTable, List<String> order) {
    try {
      return result(RelationRows.FOREIGN_KEY_COLUMNS, RelationRows.foreignKeys(rootSchema(),
          pkSchema, pkTable, fkSchema, fkTable, order));
    } catch (SQLException e) {
      throw ClientErrors.raise(e);
    }
  }

  /** The indexes of {@code schema.table} that its shards declare alike (see
   * {@link RelationRows}); Calcite lists none. */
  @Override public MetaResultSet getIndexInfo(ConnectionHandle ch, String catalog,
      String schema, String table, boolean unique, boolean approximate) {
    try {
      return result(RelationRows.INDEX_COLUMNS,
          RelationRows.indexes(rootSchema(), schema, table, unique));
    } catch (SQLException e) {
      throw ClientErrors.raise(e);
    }
  }

  private SchemaPlus rootSchema() {
    try {
      return connection.unwrap(CalciteConnection.class).getRootSchema();
    } catch (SQLException e) {
      throw ClientErrors.raise(e);
    }
  }

  /** A metadata result of rows in the given columns. */
  private MetaResultSet result(List<MetadataColumn> columns, List<Object[]> rows) {
    final List<ColumnMetaData> metaData = new ArrayList<>();
    for (MetadataColumn column : columns) {
      metaData.add(columnMetaData(column.name(), metaData.size(), column.type(),
          column.nullable()));
    }
    return createResultSet(Map.of(), metaData, CursorFactory.ARRAY,
        Frame.create(0, true, new ArrayList<>(rows)));
  }

  /**
   * The rows of a query, which fail once the statement's query timeout is up (see
   * {@link TimedRows}); Calcite itself passes the timeout to the scans only, which do not see
   * the time the client or Calcite spends on rows they already sent.
   */
  @Override public Iterable<Object> createIterable(StatementHandle handle, QueryState state,
      Signature signature, List<TypedValue> parameterValues, Frame firstFrame) {
    final TrackedStatement tracked = awaitingRows.remove(handle.id);
    final Iterable<Object> rows;
    try {
      rows = timed(handle, signature,
          super.createIterable(handle, state, signature, parameterValues, firstFrame));
    } catch (RuntimeException | Error e) {
      if (tracked != null) {
        ended(tracked, TrackedRows.outcome(e));
      }
      throw e;
    }
    return tracked == null ? rows : new TrackedRows(rows, how -> ended(tracked, how));
  }

  private Iterable<Object> timed(StatementHandle handle, Signature signature,
      Iterable<Object> rows) {
    final AvaticaStatement statement = connection.statementMap.get(handle.id);
    if (statement == null
        || signature.statementType != null && signature.statementType.canUpdate()) {
      // A write's count: its shard statements are not scans, and it is not a result to read.
      return rows;
    }
    try {
      return TimedRows.of(rows, statement.getQueryTimeout());
    } catch (SQLException e) {
      throw ClientErrors.raise(e);
    }
  }

  /**
   * Starts tracking an execution of a statement ({@link StatementTracker}): it is listed as
   * running, and can be canceled by its number, until its rows are closed. The statement's
   * previous execution, if its rows are still open, ends here.
   */
  private @Nullable TrackedStatement track(StatementHandle h, @Nullable String sql) {
    if (inBatch) {
      // A batch's statements are not tracked one by one: their rows go to the shards at its
      // end, and clearing the cancel flag for each would undo a cancel of the batch.
      return null;
    }
    final AtomicBoolean cancelFlag;
    try {
      cancelFlag = connection.getCancelFlag(h);
    } catch (NoSuchStatementException e) {
      return null;
    }
    endPrevious(h, cancelFlag, "closed");
    final String text = sql != null ? sql : preparedSql(h);
    final TrackedStatement tracked = tracker.start(session, user, text == null ? "" : text,
        cancelFlag, activity.seesAll());
    awaitingRows.put(h.id, tracked);
    return tracked;
  }

  /** Ends the execution of the statement that is still tracked, if any. */
  private void endPrevious(StatementHandle h, AtomicBoolean cancelFlag, String how) {
    awaitingRows.remove(h.id);
    final TrackedStatement previous = tracker.of(cancelFlag);
    if (previous != null) {
      ended(previous, how);
    }
  }

  /**
   * Ends the tracking of an execution that failed, or that made no rows to read: a write,
   * whose count Calcite read already (Avatica leaves its rows unclosed); a query's rows end
   * it when they are read or closed.
   */
  private void executed(StatementHandle h, @Nullable TrackedStatement tracked,
      @Nullable ExecuteResult result, @Nullable RuntimeException failure) {
    tracker.executed();
    if (tracked == null) {
      return;
    }
    if (result == null) {
      awaitingRows.remove(h.id, tracked);
      final String outcome = failure == null ? "error" : TrackedRows.outcome(failure);
      ended(tracked, outcome);
      if (audit.isOn() && AuditLog.writes(tracked.sql())) {
        audit.wrote(tracked, address, -1, AuditLog.withState(outcome, failure),
            shardsOf(tracked, session.lastWrite()));
      }
      return;
    }
    for (MetaResultSet resultSet : result.resultSets) {
      if (resultSet.updateCount >= 0 || resultSet.signature != null
          && resultSet.signature.statementType != null
          && resultSet.signature.statementType.canUpdate()) {
        awaitingRows.remove(h.id, tracked);
        ended(tracked, "ok");
        if (audit.isOn()) {
          final ShardSession.LastWrite write = session.lastWrite();
          audit.wrote(tracked, address, write == null ? -1 : write.rows(), "ok",
              shardsOf(tracked, write));
        }
        return;
      }
    }
  }

  /** The shards a write statement read from and wrote to, in order. */
  private static Set<String> shardsOf(TrackedStatement tracked,
      ShardSession.@Nullable LastWrite write) {
    final Set<String> shards = new TreeSet<>(tracked.shards());
    if (write != null) {
      shards.addAll(write.shards());
    }
    return shards;
  }

  private void ended(TrackedStatement tracked, String how) {
    if (tracker.end(tracked, how)) {
      SlowStatementLog.logIfSlow(tracked, activity);
    }
  }

  /** Ends what a closed statement still tracks. */
  @Override public void closeStatement(StatementHandle h) {
    try {
      endPrevious(h, connection.getCancelFlag(h), "closed");
    } catch (NoSuchStatementException e) {
      awaitingRows.remove(h.id);
    }
    keyRequests.remove(h.id);
    generatedKeys.remove(h.id);
    super.closeStatement(h);
  }

  /** Ends what the closed connection's statements still track. */
  @Override public void closeConnection(ConnectionHandle ch) {
    try {
      session.close();
      super.closeConnection(ch);
    } finally {
      awaitingRows.clear();
      keyRequests.clear();
      generatedKeys.clear();
      for (TrackedStatement ended : tracker.closed(session)) {
        SlowStatementLog.logIfSlow(ended, activity);
      }
    }
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    final SavepointStatement savepoint = SavepointStatement.parse(sql);
    if (savepoint != null) {
      return savepoint(h, savepoint, callback);
    }
    beforeStatement();
    final TrackedStatement tracked = track(h, sql);
    ExecuteResult result = null;
    RuntimeException failure = null;
    try {
      result = withKeys(h,
          () -> super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback));
      return result;
    } catch (RuntimeException e) {
      failure = e;
      throw failed(e);
    } finally {
      executed(h, tracked, result, failure);
    }
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    beforeStatement();
    final TrackedStatement tracked = track(h, null);
    ExecuteResult result = null;
    RuntimeException failure = null;
    try {
      final List<TypedValue> values = sendable(h, parameterValues);
      result = withKeys(h, () -> super.execute(h, values, maxRowsInFirstFrame));
      return result;
    } catch (RuntimeException e) {
      failure = e;
      throw failed(e);
    } finally {
      executed(h, tracked, result, failure);
    }
  }

  /**
   * Runs a savepoint statement in the session, as the connection's savepoint calls do: the
   * way clients without those calls (the remote drivers, SQL tools) set and use savepoints.
   * Its count is 0.
   */
  private ExecuteResult savepoint(StatementHandle h, SavepointStatement statement,
      PrepareCallback callback) {
    try {
      statement.run(session);
      synchronized (callback.getMonitor()) {
        callback.clear();
        callback.assign(null, null, 0);
      }
      callback.execute();
    } catch (SQLException e) {
      throw withSqlState(ClientErrors.keep(e));
    }
    return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, 0)));
  }

  /** Refuses a statement while the session's transaction is aborted (25P02). */
  private void beforeStatement() {
    try {
      session.beforeStatement();
    } catch (SQLException e) {
      throw withSqlState(ClientErrors.keep(e));
    }
  }

  /**
   * The exception to pass on for a failed execution, after telling the session, whose
   * transaction it aborts (and which may explain it as the end of a deadlock).
   */
  private RuntimeException failed(RuntimeException e) {
    return withSqlState(ClientErrors.keep(session.statementFailed(ClientErrors.classify(e))));
  }

  /** An execution, which throws what Avatica's {@code Meta} methods throw. */
  @FunctionalInterface
  private interface Execution<T> {
    T run() throws NoSuchStatementException;
  }

  /**
   * Runs a statement's execution with the generated keys it asks for, and keeps them for
   * {@link #generatedKeys}; the statements of a batch give theirs when the batch ends.
   */
  private <T> T withKeys(StatementHandle h, Execution<T> execution)
      throws NoSuchStatementException {
    if (inBatch) {
      return execution.run();
    }
    final KeyRequest request = keyRequests.get(h.id);
    generatedKeys.remove(h.id);
    if (request == null) {
      return execution.run();
    }
    session.requestKeys(request);
    boolean ran = false;
    try {
      final T result = execution.run();
      ran = true;
      return result;
    } finally {
      final GeneratedKeys keys = session.takeGeneratedKeys();
      generatedKeys.put(h.id, ran ? keys : GeneratedKeys.NONE);
    }
  }

  @Override public void requestKeys(int statementId, @Nullable KeyRequest request) {
    if (request == null) {
      keyRequests.remove(statementId);
    } else {
      keyRequests.put(statementId, request);
    }
  }

  /** The keys as a result of a column per key, as its table types it, and a row per row. */
  @Override public MetaResultSet generatedKeys(int statementId) {
    final GeneratedKeys keys = generatedKeys.getOrDefault(statementId, GeneratedKeys.NONE);
    final List<ColumnMetaData> columns = new ArrayList<>();
    for (int c = 0; c < keys.columns().size(); c++) {
      columns.add(KeyColumnMetaData.of(c, keys.columns().get(c), keys.jdbcTypes().get(c)));
    }
    return createResultSet(Map.of(), columns, CursorFactory.ARRAY,
        Frame.create(0, true, new ArrayList<>(keys.rows())));
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h,
      List<String> sqlCommands) throws NoSuchStatementException {
    return audited(sqlCommands.isEmpty() ? "" : sqlCommands.get(0),
        () -> asOne(h, () -> super.prepareAndExecuteBatch(h, sqlCommands)));
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h,
      List<List<TypedValue>> parameterValues) throws NoSuchStatementException {
    final List<List<TypedValue>> sendable = new ArrayList<>();
    for (List<TypedValue> values : parameterValues) {
      sendable.add(sendable(h, values));
    }
    final String sql = preparedSql(h);
    return audited(sql == null ? "" : sql,
        () -> asOne(h, () -> super.executeBatch(h, sendable)));
  }

  /** A batch's execution, as a call. */
  @FunctionalInterface
  private interface BatchCall {
    ExecuteBatchResult run() throws NoSuchStatementException;
  }

  /** Runs a batch, and writes it to the audit trail with how it ended. */
  private ExecuteBatchResult audited(String sql, BatchCall batch)
      throws NoSuchStatementException {
    if (!audit.isOn()) {
      return batch.run();
    }
    try {
      final ExecuteBatchResult result = batch.run();
      audit.wroteBatch(user, address, sql, result.updateCounts, "ok");
      return result;
    } catch (RuntimeException e) {
      audit.wroteBatch(user, address, sql, new long[0], TrackedRows.outcome(e));
      throw e;
    }
  }

  /**
   * The parameter values as Calcite can bind them: {@code java.time} values converted
   * ({@link JavaTimeParameters}), text for date and time parameters read
   * ({@link TimeTextParameters}), fractions for integer parameters rounded
   * ({@link IntegerParameters}).
   */
  private List<TypedValue> sendable(StatementHandle h, List<TypedValue> values) {
    final List<TypedValue> times = JavaTimeParameters.sendable(values, this::zone);
    try {
      // The statement's parameters: the handle's signature may be the shared plan's, whose
      // parameters include the literals the plan cache made parameters.
      final ParameterMetaData parameters =
          connection.statementMap.get(h.id) instanceof PreparedStatement prepared
              ? prepared.getParameterMetaData() : null;
      return IntegerParameters.rounded(TimeTextParameters.read(times, parameters), parameters,
          () -> {
            final String sql = preparedSql(h);
            return sql == null ? null
                : AssignedParameters.of(sql, ((CalciteConnection) connection).config());
          });
    } catch (SQLException e) {
      throw withSqlState(ClientErrors.keep(e));
    }
  }

  /** The session's time zone, in which an {@code Instant} parameter is a TIMESTAMP. */
  private ZoneId zone() {
    return connection.getTimeZone().toZoneId();
  }

  /** A batch's run, whose statements Calcite executes one by one. */
  @FunctionalInterface
  private interface Batch {
    ExecuteBatchResult run() throws NoSuchStatementException;
  }

  /**
   * Runs a batch in autocommit mode as one transaction, committed when every statement of it
   * succeeded and rolled back otherwise: Calcite executes a batch one statement at a time, and
   * a commit per row (a disk flush on most databases) would make a batch of a thousand rows
   * a thousand transactions. With autocommit off the batch joins the open transaction.
   * Either way the batch's INSERT rows wait until its last statement has run and then go to
   * their shards in JDBC batches ({@link ShardSession#beginBatch}): a shard's refusal of a
   * row fails the whole batch then, with the shard's SQLState.
   */
  private ExecuteBatchResult asOne(StatementHandle h, Batch batch)
      throws NoSuchStatementException {
    return withKeys(h, () -> asOne(batch));
  }

  /** Runs a batch as {@link #asOne(StatementHandle, Batch)} says. */
  private ExecuteBatchResult asOne(Batch batch) throws NoSuchStatementException {
    try {
      session.beginBatch();
    } catch (SQLException e) {
      throw withSqlState(ClientErrors.keep(e));
    }
    inBatch = true;
    SQLException failure = null;
    try {
      final ExecuteBatchResult result = batch.run();
      session.endBatch();
      return result;
    } catch (SQLException e) {
      failure = e;
      throw withSqlState(ClientErrors.keep(session.statementFailed(e)));
    } catch (RuntimeException e) {
      failure = ClientErrors.classify(e);
      throw withSqlState(ClientErrors.keep(session.statementFailed(failure)));
    } finally {
      inBatch = false;
      session.discardBatch(failure);
    }
  }

  /**
   * The exception to pass on for a failed execution: one with the SQLState and reason of the
   * failure ({@link ClientErrors}; 40001 for a write whose key range is moving, 42S02 for an
   * unknown table, say), which Avatica passes to the client only from this exception class,
   * and with the failure as its cause, for the connection to keep
   * ({@code ShardSetJdbcFactory}).
   */
  private static RuntimeException withSqlState(Exception e) {
    final SQLException failure = e instanceof SQLException known && known.getSQLState() != null
        ? known : ClientErrors.classify(e);
    final RuntimeException stated = new AvaticaClientRuntimeException(failure.getMessage(),
        failure.getErrorCode(), failure.getSQLState(), AvaticaSeverity.ERROR, List.of(), null);
    stated.initCause(e);
    return stated;
  }
}
