package io.shardset.cli.server.pg;

import io.shardset.session.SessionOwner;
import io.shardset.session.ShardSession;

import org.apache.calcite.jdbc.CalciteConnection;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One PostgreSQL client's session after it authenticated, on one embedded ShardSet
 * connection: simple queries, the extended protocol's prepared statements and portals, and
 * the transaction status PostgreSQL's clients track.
 *
 * <p>Transactions behave as PostgreSQL's: {@code BEGIN} opens one, and a failed statement in
 * it fails it until {@code ROLLBACK} (or {@code ROLLBACK TO} a savepoint); outside one, the
 * statements of one Query message, or of the messages up to a Sync, change rows all or not at
 * all (a write opens a transaction that the end of the message, or the Sync, commits, or an
 * error rolls back). Reads outside a transaction run on their own.
 *
 * <p>Messages are handled one after the other on one thread; {@link #cancel} comes from
 * another.
 */
final class PgSession implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PgSession.class);
  private static final String IN_FAILED_TRANSACTION = "25P02";

  /** Where a session is, as ReadyForQuery tells its client. */
  private enum Status {
    IDLE('I'), BLOCK('T'), FAILED('E');

    private final char code;

    Status(char code) {
      this.code = code;
    }
  }

  private final Connection connection;
  private final PgOutput out;
  /** Where a COPY's data comes from. */
  private final PgInbox inbox;
  private final PgSettings settings;
  private final PgSettings initialSettings;
  /** The server's limit on any statement, in seconds; 0 for none. */
  private final int serverTimeoutSeconds;
  private final Map<String, PgPrepared> prepared = new HashMap<>();
  /** Statements the client closed, to prepare again without preparing. */
  private final PgStatementCache closedStatements = new PgStatementCache();
  private final Map<String, PgPortal> portals = new HashMap<>();
  private final PgCursors cursors = new PgCursors();
  private final Map<String, Savepoint> savepoints = new LinkedHashMap<>();
  private Status status = Status.IDLE;
  /** Whether a write outside a transaction block opened a transaction that ends at Sync. */
  private boolean implicit;
  /** Whether an error in the extended protocol skips messages up to the next Sync. */
  private boolean skipToSync;
  private volatile @Nullable Statement running;
  /** The session's process id, which its cancel key and {@code pg_backend_pid()} give. */
  private final int processId;
  /** The connection's ShardSet session, whose warnings go to the client; found once. */
  private final @Nullable ShardSession shardSession;

  PgSession(Connection connection, PgOutput out, PgInbox inbox, PgSettings settings,
      int serverTimeoutSeconds, int processId) {
    this.processId = processId;
    this.shardSession = shardSession(connection);
    this.inbox = inbox;
    this.connection = connection;
    this.out = out;
    this.settings = settings;
    this.initialSettings = settings.copy();
    this.serverTimeoutSeconds = serverTimeoutSeconds;
  }

  /** The status a ReadyForQuery reports. */
  char status() {
    return status.code;
  }

  /**
   * Handles one message.
   *
   * @return false if the client ended the session (Terminate)
   */
  boolean handle(PgFrame frame) {
    final char type = (char) frame.type();
    LOG.trace("message {} of {} bytes{}", type, frame.body().length,
        skipToSync && type != 'S' ? ", skipped up to the next Sync" : "");
    if (skipToSync && type != 'S' && type != 'X') {
      return true;
    }
    switch (type) {
    case 'Q':
      simpleQuery(frame.input().readString());
      return true;
    case 'P':
      extended(() -> parse(frame.input()));
      return true;
    case 'B':
      extended(() -> bind(frame.input()));
      return true;
    case 'D':
      extended(() -> describe(frame.input()));
      return true;
    case 'E':
      extended(() -> execute(frame.input()));
      return true;
    case 'C':
      extended(() -> close(frame.input()));
      return true;
    case 'S':
      sync();
      return true;
    case 'H':
      out.flush();
      return true;
    case 'X':
      return false;
    case 'd':
    case 'c':
    case 'f':
      // Copy data after a COPY that failed, which the client still sends: ignored, as
      // PostgreSQL ignores it.
      return true;
    default:
      throw new PgProtocolException("invalid frontend message type " + (int) frame.type());
    }
  }

  /** Cancels the statement running now, if any. */
  void cancel() {
    final Statement statement = running;
    if (statement != null) {
      try {
        statement.cancel();
      } catch (SQLException e) {
        LOG.debug("cancelling a statement failed", e);
      }
    }
  }

  // The simple query protocol.

  private void simpleQuery(String text) {
    LOG.trace("query: {}", text);
    final List<String> statements = SimpleQueryText.statements(text);
    if (statements.isEmpty()) {
      out.emptyQueryResponse();
    }
    for (String statement : statements) {
      try {
        runSimple(PgCommand.of(rewrite(statement)));
        sendWarnings();
      } catch (SQLException | RuntimeException e) {
        if (!(e instanceof PgOutput.ClientGoneException)) {
          sendWarnings();
        }
        failed(e);
        break;
      }
    }
    try {
      endImplicit();
    } catch (SQLException | RuntimeException e) {
      failed(e);
    }
    closePortalsOutsideTransaction();
    out.readyForQuery(status.code);
    out.flush();
  }

  private void runSimple(PgCommand command) throws SQLException {
    if (runSessionCommand(command)) {
      return;
    }
    checkNotFailed();
    if (command.kind() == PgCommand.Kind.SHOW) {
      show(command, PgFormats.TEXT, true);
      return;
    }
    if (command.kind() == PgCommand.Kind.COPY) {
      copy(command);
      return;
    }
    if (command.kind() == PgCommand.Kind.CURSOR) {
      cursor(PgCursorCommand.parse(command.text()));
      return;
    }
    if (command.kind() == PgCommand.Kind.PREPARED) {
      sqlPrepared(PgSqlPrepare.parse(command.text()));
      return;
    }
    final Optional<PgCannedQueries.Answer> canned =
        PgCannedQueries.answer(command.text(), this::catalog, this::writable);
    if (canned.isPresent()) {
      sendCanned(canned.get(), true);
      return;
    }
    beginImplicitIfWrite(command);
    final PgReturning returning = command.kind() == PgCommand.Kind.INSERT
        ? PgReturning.of(command.text()).orElse(null) : null;
    if (returning != null) {
      insertReturning(command, returning);
      return;
    }
    try (Statement statement = connection.createStatement()) {
      limit(statement);
      running = statement;
      try {
        if (statement.execute(command.text())) {
          try (ResultSet result = statement.getResultSet()) {
            final List<PgColumn> columns = PgColumn.of(result.getMetaData());
            out.rowDescription(columns, PgFormats.TEXT);
            final long rows = sendRows(result, columns, PgFormats.TEXT, 0, null);
            out.commandComplete(command.tag(rows));
          }
        } else {
          out.commandComplete(command.tag(Math.max(0, statement.getLargeUpdateCount())));
        }
      } finally {
        running = null;
      }
    }
  }

  /** Runs a simple query's {@code INSERT ... RETURNING}: the INSERT, then its keys as rows. */
  private void insertReturning(PgCommand command, PgReturning returning) throws SQLException {
    final List<PgColumn> columns = returningColumns(returning);
    try (PreparedStatement statement =
        PgPrepared.prepare(connection, returning.insert(), columns)) {
      limit(statement);
      running = statement;
      try {
        final long count = statement.executeLargeUpdate();
        out.rowDescription(columns, PgFormats.TEXT);
        try (ResultSet keys = statement.getGeneratedKeys()) {
          sendRows(keys, columns, PgFormats.TEXT, 0, null);
        }
        out.commandComplete(command.tag(count));
      } finally {
        running = null;
      }
    }
  }

  /**
   * The columns an {@code INSERT ... RETURNING} returns, with their types, from the catalog.
   *
   * @throws PgProtocolException (42P01) for a table the catalog does not have, (42703) for a
   *     column the table does not have
   */
  private List<PgColumn> returningColumns(PgReturning returning) {
    // Names are found without regard to case, as the session finds them.
    for (PgCatalogModel.Relation relation : catalog().relations()) {
      if (relation.name().equalsIgnoreCase(returning.table())
          && (returning.schema() == null
              || relation.schema().equalsIgnoreCase(returning.schema()))) {
        final List<String> names = returning.columns();
        if (names == null) {
          return relation.attributes().stream()
              .map(attribute -> new PgColumn(attribute.name(), attribute.type())).toList();
        }
        final List<PgColumn> columns = new ArrayList<>();
        for (String name : names) {
          columns.add(relation.attributes().stream()
              .filter(attribute -> attribute.name().equalsIgnoreCase(name))
              .map(attribute -> new PgColumn(attribute.name(), attribute.type()))
              .findFirst().orElseThrow(() -> new PgProtocolException("42703",
                  "column \"" + name + "\" does not exist")));
        }
        return columns;
      }
    }
    throw new PgProtocolException("42P01", "relation \"" + returning.table()
        + "\" does not exist");
  }

  /** Runs a COPY, in the session's transaction or, outside one, in one of its own. */
  private void copy(PgCommand command) throws SQLException {
    final PgCopyCommand copy = PgCopyCommand.parse(command.text()).orElseThrow(
        () -> new PgProtocolException("42601", "COPY is served FROM STDIN and TO STDOUT only"));
    final PgCopy run = new PgCopy(copy, connection, out);
    if (copy.in()) {
      beginImplicit();
      try {
        out.commandComplete(command.tag(run.in(inbox)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new PgOutput.ClientGoneException("the server is stopping");
      }
      return;
    }
    try (Statement statement = connection.createStatement()) {
      limit(statement);
      running = statement;
      try {
        out.commandComplete(command.tag(run.out(statement)));
      } finally {
        running = null;
      }
    }
  }

  /**
   * Runs SQL's PREPARE, EXECUTE or DEALLOCATE on the session's prepared statements, the
   * ones Parse names: EXECUTE binds its arguments as text and runs the statement as a simple
   * query runs its own.
   */
  private void sqlPrepared(PgSqlPrepare sql) throws SQLException {
    final String name = sql.name();
    switch (sql.kind()) {
    case PREPARE:
      if (prepared.containsKey(name)) {
        throw new PgProtocolException("42P05", "prepared statement \"" + name
            + "\" already exists");
      }
      prepared.put(name, prepared(sql.statement(), sql.oids()));
      out.commandComplete("PREPARE");
      return;
    case EXECUTE:
      final PgPrepared statement = prepared.get(name);
      if (statement == null) {
        throw new PgProtocolException("26000", "prepared statement \"" + name
            + "\" does not exist");
      }
      if (sql.arguments().size() != statement.parameterCount()) {
        throw new PgProtocolException("42601", "wrong number of parameters for prepared"
            + " statement \"" + name + "\"");
      }
      final byte[][] values = new byte[sql.arguments().size()][];
      for (int i = 0; i < values.length; i++) {
        final String value = sql.arguments().get(i);
        values[i] = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
      }
      try (PgPortal portal = bound(statement, values, PgFormats.TEXT, PgFormats.TEXT)) {
        final PgCommand command = statement.command();
        if (statement.canned() != null || statement.returning() != null
            || command.kind() == PgCommand.Kind.SHOW
            || statement.statement() != null && command.mayReturnRows()) {
          describeResult(statement, portal, PgFormats.TEXT);
        }
        run(portal, 0);
      }
      return;
    default:
      if (name == null) {
        for (PgPrepared each : prepared.values()) {
          each.close();
        }
        prepared.clear();
        out.commandComplete("DEALLOCATE ALL");
        return;
      }
      final PgPrepared removed = prepared.remove(name);
      if (removed == null) {
        throw new PgProtocolException("26000", "prepared statement \"" + name
            + "\" does not exist");
      }
      removed.close();
      out.commandComplete("DEALLOCATE");
    }
  }

  /** Runs DECLARE, FETCH, MOVE or CLOSE on the session's cursors. */
  private void cursor(PgCursorCommand cursor) throws SQLException {
    switch (cursor.kind()) {
    case DECLARE:
      if (cursor.hold()) {
        throw new PgProtocolException("0A000", "WITH HOLD cursors are not supported");
      }
      if (status == Status.IDLE) {
        throw new PgProtocolException("25P01",
            "DECLARE CURSOR can only be used in transaction blocks");
      }
      final Statement statement = connection.createStatement();
      try {
        limit(statement);
        running = statement;
        cursors.declare(cursor.name(), statement, statement.executeQuery(cursor.query()));
      } catch (SQLException | RuntimeException e) {
        statement.close();
        throw e;
      } finally {
        running = null;
      }
      out.commandComplete("DECLARE CURSOR");
      return;
    case FETCH:
    case MOVE:
      final PgCursors.Cursor open = cursors.get(cursor.name());
      running = open.statement();
      try {
        if (cursor.kind() == PgCursorCommand.Kind.MOVE) {
          out.commandComplete("MOVE " + open.skip(cursor.count()));
          return;
        }
        out.rowDescription(open.columns(), PgFormats.TEXT);
        out.commandComplete("FETCH "
            + sendRows(open.rows(), open.columns(), PgFormats.TEXT, cursor.count(), null));
      } finally {
        running = null;
      }
      return;
    default:
      cursors.close(cursor.name());
      out.commandComplete("CLOSE CURSOR");
    }
  }

  /** Whether the session's user may change rows: its connection is not read-only. */
  private boolean writable() {
    try {
      return !connection.isReadOnly();
    } catch (SQLException e) {
      return false;
    }
  }

  /** The catalog of the session's tables. */
  private PgCatalogModel catalog() {
    try {
      final CalciteConnection calcite = connection.unwrap(CalciteConnection.class);
      return PgCatalogModel.of(calcite.getRootSchema(), calcite.getTypeFactory());
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the session's schemas", e);
    }
  }

  private static List<PgColumn> cannedColumns(PgCannedQueries.Answer answer) {
    final List<PgColumn> columns = new ArrayList<>();
    for (int i = 0; i < answer.columns().size(); i++) {
      columns.add(new PgColumn(answer.columns().get(i), answer.types().get(i)));
    }
    return columns;
  }

  /** A canned answer's rows, after its RowDescription if {@code describe}. */
  private void sendCanned(PgCannedQueries.Answer answer, boolean describe) {
    if (describe) {
      out.rowDescription(cannedColumns(answer), PgFormats.TEXT);
    }
    for (List<String> row : answer.rows()) {
      out.dataRow(row.size());
      for (String value : row) {
        out.value(value == null ? null : value.getBytes(StandardCharsets.UTF_8));
      }
      out.endRow();
    }
    out.commandComplete("SELECT " + answer.rows().size());
  }

  // The extended query protocol.

  /** Work of a message of the extended protocol, which may fail. */
  private interface Step {
    void run() throws SQLException;
  }

  private void extended(Step step) {
    try {
      step.run();
      sendWarnings();
    } catch (SQLException | RuntimeException e) {
      if (e instanceof PgOutput.ClientGoneException gone) {
        throw gone;
      }
      sendWarnings();
      failed(e);
      skipToSync = true;
    }
  }

  /**
   * Sends the warnings the session's statements gave (a scatter the model warns of) as
   * NoticeResponses of severity WARNING, SQLState 01000, as PostgreSQL sends its own.
   */
  private void sendWarnings() {
    if (shardSession != null) {
      for (String warning : shardSession.takeWarnings()) {
        out.report('N', "WARNING", "01000", warning, null);
      }
    }
  }

  /** The ShardSet session of an embedded connection, or null for another connection. */
  private static @Nullable ShardSession shardSession(Connection connection) {
    try {
      return connection.isWrapperFor(SessionOwner.class)
          ? connection.unwrap(SessionOwner.class).session() : null;
    } catch (SQLException e) {
      return null;
    }
  }

  private void parse(PgInput input) throws SQLException {
    final String name = input.readString();
    final String query = input.readString();
    final int[] oids = new int[input.readCount()];
    for (int i = 0; i < oids.length; i++) {
      oids[i] = input.readInt();
    }
    if (!name.isEmpty() && prepared.containsKey(name)) {
      throw new PgProtocolException("42P05", "prepared statement \"" + name
          + "\" already exists");
    }
    LOG.trace("parse {}: {}", name, query);
    // The replaced statement first, to the cache, whence the same text takes it again.
    final PgPrepared replaced = prepared.remove(name);
    if (replaced != null) {
      replaced.close();
    }
    prepared.put(name, prepared(query, oids));
    out.parseComplete();
  }

  /** Prepares a statement of Parse or of SQL's PREPARE, with its parameters' types. */
  private PgPrepared prepared(String query, int[] oids) throws SQLException {
    final List<String> statements = SimpleQueryText.statements(query);
    if (statements.size() > 1) {
      throw new PgProtocolException("42601",
          "cannot insert multiple commands into a prepared statement");
    }
    final PgCommand command = PgCommand.of(statements.isEmpty() ? ""
        : rewrite(statements.get(0)));
    final PgReturning returning = command.kind() == PgCommand.Kind.INSERT
        ? PgReturning.of(command.text()).orElse(null) : null;
    final SimpleQueryText.JdbcText text =
        SimpleQueryText.jdbcText(returning != null ? returning.insert() : command.text());
    final List<PgColumn> returned = returning == null ? null : returningColumns(returning);
    final boolean answered = sessionCommand(command) || command.kind() == PgCommand.Kind.SHOW
        || command.kind() == PgCommand.Kind.EMPTY;
    final PgCannedQueries.Answer canned = answered ? null
        : PgCannedQueries.answer(command.text(), this::catalog, this::writable).orElse(null);
    final PreparedStatement kept = answered || canned != null || returned != null ? null
        : closedStatements.take(text.sql());
    final PreparedStatement statement = answered || canned != null ? null
        : kept != null ? kept : PgPrepared.prepare(connection, text.sql(), returned);
    return new PgPrepared(command, text, oids, statement, canned, returned,
        closedStatements);
  }

  private void bind(PgInput input) throws SQLException {
    final String portalName = input.readString();
    final String statementName = input.readString();
    final PgPrepared statement = prepared.get(statementName);
    if (statement == null) {
      throw new PgProtocolException("26000", "prepared statement \"" + statementName
          + "\" does not exist");
    }
    final PgFormats parameterFormats = PgFormats.read(input);
    final int count = input.readCount();
    if (count != statement.parameterCount()) {
      throw new PgProtocolException(String.format(Locale.ROOT, "bind message"
          + " supplies %d parameters, but prepared statement \"%s\" requires %d", count,
          statementName, statement.parameterCount()));
    }
    parameterFormats.checkFits(count, "parameter");
    final byte[][] values = new byte[count][];
    for (int i = 0; i < count; i++) {
      final int length = input.readInt();
      values[i] = length < 0 ? null : input.readBytes(length);
    }
    final PgFormats resultFormats = PgFormats.read(input);
    if (!portalName.isEmpty() && portals.containsKey(portalName)) {
      throw new PgProtocolException("42P03", "portal \"" + portalName + "\" already exists");
    }
    closePortal(portalName);
    portals.put(portalName, bound(statement, values, parameterFormats, resultFormats));
    out.bindComplete();
  }

  /** A portal of {@code statement} with its parameters' values set; closed if one fails. */
  private PgPortal bound(PgPrepared statement, byte[][] values, PgFormats parameterFormats,
      PgFormats resultFormats) throws SQLException {
    PreparedStatement jdbc = statement.statement();
    boolean own = false;
    if (jdbc != null && !statement.lend()) {
      jdbc = statement.prepare(connection);
      own = true;
    }
    final PgPortal portal = new PgPortal(statement, jdbc, own, resultFormats);
    try {
      if (jdbc != null) {
        final int[] numbers = statement.text().numbers();
        for (int marker = 0; marker < numbers.length; marker++) {
          final int number = numbers[marker];
          if (number < 1 || number > values.length) {
            throw new PgProtocolException("42P02", "there is no parameter $" + number);
          }
          PgParameters.set(jdbc, marker + 1, values[number - 1],
              parameterFormats.binary(number - 1), statement.declaredOid(number),
              statement.jdbcType(number));
        }
      }
      return portal;
    } catch (SQLException | RuntimeException e) {
      portal.close();
      throw e;
    }
  }

  private void describe(PgInput input) throws SQLException {
    final byte what = input.readByte();
    final String name = input.readString();
    if (what == 'S') {
      final PgPrepared statement = prepared.get(name);
      if (statement == null) {
        throw new PgProtocolException("26000", "prepared statement \"" + name
            + "\" does not exist");
      }
      out.parameterDescription(statement.parameterOids());
      describeResult(statement, null, PgFormats.TEXT);
    } else if (what == 'P') {
      final PgPortal portal = portal(name);
      describeResult(portal.prepared(), portal, portal.resultFormats());
    } else {
      throw new PgProtocolException("invalid DESCRIBE message subtype " + what);
    }
  }

  private void describeResult(PgPrepared statement, @Nullable PgPortal portal,
      PgFormats formats) throws SQLException {
    final PgCommand command = statement.command();
    if (statement.canned() != null) {
      out.rowDescription(cannedColumns(statement.canned()), PgFormats.TEXT);
    } else if (command.kind() == PgCommand.Kind.SHOW) {
      out.rowDescription(List.of(showColumn(command)), formats);
    } else if (statement.returning() != null) {
      out.rowDescription(statement.returning(), formats);
    } else if (statement.statement() != null && command.mayReturnRows()) {
      out.rowDescription(portal != null ? portal.columns()
          : PgColumn.of(statement.statement().getMetaData()), formats);
    } else {
      out.noData();
    }
  }

  private void execute(PgInput input) throws SQLException {
    final String name = input.readString();
    final int maxRows = input.readInt();
    run(portal(name), maxRows);
  }

  /** Runs a portal, sending at most {@code maxRows} rows (0 for all) and its tag. */
  private void run(PgPortal portal, int maxRows) throws SQLException {
    final PgCommand command = portal.prepared().command();
    if (portal.done()) {
      // Run to its end before: PostgreSQL answers with the same tag and no rows.
      out.commandComplete(command.tag(0));
      return;
    }
    if (command.kind() == PgCommand.Kind.EMPTY) {
      out.emptyQueryResponse();
      return;
    }
    if (runSessionCommand(command)) {
      portal.finish();
      return;
    }
    checkNotFailed();
    if (command.kind() == PgCommand.Kind.SHOW) {
      show(command, portal.resultFormats(), false);
      portal.finish();
      return;
    }
    if (portal.prepared().canned() != null) {
      sendCanned(portal.prepared().canned(), false);
      portal.finish();
      return;
    }
    final PreparedStatement statement = portal.statement();
    if (statement == null) {
      throw new PgProtocolException("a portal of \"" + command.text() + "\" cannot run");
    }
    beginImplicitIfWrite(command);
    running = statement;
    try {
      final List<PgColumn> returned = portal.prepared().returning();
      if (returned != null) {
        limit(statement);
        final long count = statement.executeLargeUpdate();
        try (ResultSet keys = statement.getGeneratedKeys()) {
          sendRows(keys, returned, portal.resultFormats(), 0, null);
        }
        portal.finish();
        out.commandComplete(command.tag(count));
        return;
      }
      if (portal.result() == null) {
        limit(statement);
        if (!statement.execute()) {
          portal.finish();
          out.commandComplete(command.tag(Math.max(0, statement.getLargeUpdateCount())));
          return;
        }
        portal.result(statement.getResultSet());
      }
      final long rows = sendRows(portal.result(), portal.columns(), portal.resultFormats(),
          Math.max(0, maxRows), portal);
      portal.sent(rows);
      if (portal.onUnsentRow()) {
        out.portalSuspended();
      } else {
        out.commandComplete(command.tag(portal.rowsSent()));
        portal.finish();
      }
    } finally {
      running = null;
    }
  }

  private void close(PgInput input) throws SQLException {
    final byte what = input.readByte();
    final String name = input.readString();
    if (what == 'S') {
      final PgPrepared statement = prepared.remove(name);
      if (statement != null) {
        statement.close();
      }
    } else if (what == 'P') {
      closePortal(name);
    } else {
      throw new PgProtocolException("invalid CLOSE message subtype " + what);
    }
    out.closeComplete();
  }

  private void sync() {
    skipToSync = false;
    try {
      endImplicit();
    } catch (SQLException | RuntimeException e) {
      failed(e);
    }
    closePortalsOutsideTransaction();
    out.readyForQuery(status.code);
    out.flush();
  }

  private PgPortal portal(String name) {
    final PgPortal portal = portals.get(name);
    if (portal == null) {
      throw new PgProtocolException("34000", "portal \"" + name + "\" does not exist");
    }
    return portal;
  }

  // Rows.

  /**
   * Sends rows of a result, at most {@code max} (0 for all). Stopped by the limit, it reads one
   * row more to learn whether that was the end, and the portal keeps it for its next Execute.
   *
   * @param portal the portal the result is of, null for a simple query's
   * @return how many were sent
   */
  private long sendRows(ResultSet result, List<PgColumn> columns, PgFormats formats, long max,
      @Nullable PgPortal portal) throws SQLException {
    long rows = 0;
    if (portal != null && portal.onUnsentRow()) {
      portal.onUnsentRow(false);
      sendRow(result, columns, formats);
      rows++;
    }
    while ((max == 0 || rows < max) && result.next()) {
      sendRow(result, columns, formats);
      rows++;
    }
    if (portal != null && max > 0 && rows == max && result.next()) {
      portal.onUnsentRow(true);
    }
    return rows;
  }

  private void sendRow(ResultSet result, List<PgColumn> columns, PgFormats formats)
      throws SQLException {
    out.dataRow(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      final Object value = result.getObject(i + 1);
      if (value == null) {
        out.value(null);
      } else if (formats.binary(i) && PgBinary.has(columns.get(i).type().oid())) {
        out.value(PgBinary.encode(value, columns.get(i).type().oid()));
      } else {
        final String text = PgText.of(value);
        out.value(text == null ? null : text.getBytes(StandardCharsets.UTF_8));
      }
    }
    out.endRow();
  }

  // What the session answers itself.

  /** Whether a statement is transaction control, SET, RESET or DISCARD. */
  private static boolean sessionCommand(PgCommand command) {
    switch (command.kind()) {
    case BEGIN: case COMMIT: case ROLLBACK: case SAVEPOINT: case RELEASE: case ROLLBACK_TO:
    case SET: case RESET: case DISCARD_ALL:
      return true;
    default:
      return false;
    }
  }

  /** Runs a statement the session answers itself; false if it is not one. */
  private boolean runSessionCommand(PgCommand command) throws SQLException {
    if (!sessionCommand(command)) {
      return false;
    }
    final PgCommand.Kind kind = command.kind();
    if (status == Status.FAILED && kind != PgCommand.Kind.COMMIT
        && kind != PgCommand.Kind.ROLLBACK && kind != PgCommand.Kind.ROLLBACK_TO) {
      checkNotFailed();
    }
    switch (kind) {
    case BEGIN:
      begin();
      break;
    case COMMIT:
      out.commandComplete(commit());
      return true;
    case ROLLBACK:
      rollback();
      break;
    case SAVEPOINT:
      savepoint(command.savepointName());
      break;
    case RELEASE:
      release(command.savepointName());
      break;
    case ROLLBACK_TO:
      rollbackTo(command.savepointName());
      break;
    case SET:
      set(command);
      break;
    case RESET:
      if ("all".equals(command.setting())) {
        settings.resetAll(initialSettings);
      } else if (command.setting() != null) {
        settings.reset(command.setting(), initialSettings);
      }
      break;
    case DISCARD_ALL:
      discardAll();
      break;
    default:
      return false;
    }
    out.commandComplete(command.tag(0));
    return true;
  }

  private void begin() throws SQLException {
    if (status != Status.IDLE) {
      out.report('N', "WARNING", "25001", "there is already a transaction in progress", null);
      return;
    }
    if (!implicit) {
      connection.setAutoCommit(false);
    }
    implicit = false;
    status = Status.BLOCK;
  }

  /** Commits, or rolls back a failed transaction; the tag says which. */
  private String commit() throws SQLException {
    if (status == Status.IDLE && !implicit) {
      out.report('N', "WARNING", "25P01", "there is no transaction in progress", null);
      return "COMMIT";
    }
    final boolean failedBefore = status == Status.FAILED;
    try {
      closePortals();
      if (failedBefore) {
        connection.rollback();
      } else {
        connection.commit();
      }
    } finally {
      endTransaction();
    }
    return failedBefore ? "ROLLBACK" : "COMMIT";
  }

  private void rollback() throws SQLException {
    if (status == Status.IDLE && !implicit) {
      out.report('N', "WARNING", "25P01", "there is no transaction in progress", null);
      return;
    }
    try {
      closePortals();
      connection.rollback();
    } finally {
      endTransaction();
    }
  }

  private void endTransaction() throws SQLException {
    status = Status.IDLE;
    implicit = false;
    savepoints.clear();
    connection.setAutoCommit(true);
  }

  private void savepoint(String name) throws SQLException {
    if (status == Status.IDLE) {
      throw new PgProtocolException("25P01",
          "SAVEPOINT can only be used in transaction blocks");
    }
    savepoints.remove(name);
    savepoints.put(name, connection.setSavepoint(name));
  }

  private void release(String name) throws SQLException {
    final Savepoint savepoint = savepoints.get(name);
    if (savepoint == null) {
      throw new PgProtocolException("3B001", "savepoint \"" + name + "\" does not exist");
    }
    connection.releaseSavepoint(savepoint);
    dropSavepointsFrom(name);
  }

  private void rollbackTo(String name) throws SQLException {
    final Savepoint savepoint = savepoints.get(name);
    if (savepoint == null) {
      throw new PgProtocolException("3B001", "savepoint \"" + name + "\" does not exist");
    }
    connection.rollback(savepoint);
    // Savepoints after it are gone; it stays.
    dropSavepointsFrom(name);
    savepoints.put(name, savepoint);
    status = Status.BLOCK;
  }

  private void dropSavepointsFrom(String name) {
    boolean from = false;
    for (String key : new ArrayList<>(savepoints.keySet())) {
      from |= key.equals(name);
      if (from) {
        savepoints.remove(key);
      }
    }
  }

  /** A statement as Calcite takes it ({@link PgQueryRewrites}), with the calls answered
   * whose answers are the session's ({@link PgSessionFunctions}). */
  private String rewrite(String statement) {
    return PgSessionFunctions.rewrite(PgQueryRewrites.rewrite(statement), processId, settings,
        this::set);
  }

  private void set(PgCommand command) {
    final String name = command.setting();
    final String value = command.value();
    if (name == null || value == null) {
      return;
    }
    set(name, value);
  }

  /** Sets a setting, and reports it to the client if PostgreSQL reports it. */
  private void set(String name, String value) {
    final String reported = settings.set(name, value);
    if (reported != null) {
      out.parameterStatus(reported, settings.show(name));
    }
  }

  private void show(PgCommand command, PgFormats formats, boolean describe) {
    final String name = command.setting() == null ? "" : command.setting();
    final String value = settings.show(name);
    final PgColumn column = showColumn(command);
    if (describe) {
      out.rowDescription(List.of(column), formats);
    }
    out.dataRow(1);
    out.value(value.getBytes(StandardCharsets.UTF_8));
    out.endRow();
    out.commandComplete("SHOW");
  }

  private static PgColumn showColumn(PgCommand command) {
    return new PgColumn(command.setting() == null ? "" : command.setting(), PgType.TEXT);
  }

  private void discardAll() throws SQLException {
    if (status != Status.IDLE) {
      throw new PgProtocolException("25001",
          "DISCARD ALL cannot run inside a transaction block");
    }
    closePortals();
    for (PgPrepared statement : prepared.values()) {
      statement.close();
    }
    prepared.clear();
    settings.resetAll(initialSettings);
  }

  // Transactions.

  private void checkNotFailed() {
    if (status == Status.FAILED) {
      throw new PgProtocolException(IN_FAILED_TRANSACTION, "current transaction is aborted,"
          + " commands ignored until end of transaction block");
    }
  }

  private void beginImplicitIfWrite(PgCommand command) throws SQLException {
    if (command.writes()) {
      beginImplicit();
    }
  }

  /** Opens a transaction that the end of the message, or the Sync, ends, unless one is open. */
  private void beginImplicit() throws SQLException {
    if (status == Status.IDLE && !implicit) {
      connection.setAutoCommit(false);
      implicit = true;
    }
  }

  /** Commits the transaction a write outside a block opened. */
  private void endImplicit() throws SQLException {
    if (!implicit) {
      return;
    }
    try {
      closePortals();
      connection.commit();
    } finally {
      endTransaction();
    }
  }

  /** Reports a failed statement and fails the transaction it ran in. */
  private void failed(Exception e) {
    if (e instanceof PgOutput.ClientGoneException gone) {
      throw gone;
    }
    final PgError error = PgError.of(e);
    LOG.debug("statement failed: {}", error.message(), e);
    out.error(error.sqlState(), error.message());
    if (status == Status.BLOCK) {
      status = Status.FAILED;
    } else if (implicit) {
      try {
        closePortals();
        connection.rollback();
      } catch (SQLException | RuntimeException rollbackFailure) {
        LOG.warn("rolling back a failed statement's transaction failed", rollbackFailure);
      } finally {
        try {
          endTransaction();
        } catch (SQLException autoCommitFailure) {
          LOG.warn("ending a failed transaction failed", autoCommitFailure);
        }
      }
    }
  }

  private void limit(Statement statement) throws SQLException {
    final long sessionMillis = settings.statementTimeoutMillis();
    final int sessionSeconds = sessionMillis == 0 ? 0
        : (int) Math.min(Integer.MAX_VALUE, (sessionMillis + 999) / 1000);
    final int seconds = sessionSeconds == 0 ? serverTimeoutSeconds
        : serverTimeoutSeconds == 0 ? sessionSeconds
        : Math.min(sessionSeconds, serverTimeoutSeconds);
    if (seconds > 0) {
      statement.setQueryTimeout(seconds);
    }
  }

  private void closePortalsOutsideTransaction() {
    if (status == Status.IDLE) {
      try {
        closePortals();
      } catch (SQLException e) {
        LOG.debug("closing portals failed", e);
      }
    }
  }

  private void closePortal(String name) throws SQLException {
    final PgPortal portal = portals.remove(name);
    if (portal != null) {
      portal.close();
    }
  }

  /** Closes the portals and the cursors: at the end of a transaction, or of the session. */
  private void closePortals() throws SQLException {
    for (String name : new ArrayList<>(portals.keySet())) {
      closePortal(name);
    }
    cursors.close(null);
  }

  /** Rolls back what is open, as PostgreSQL does when a client goes, and closes the
   * connection. */
  @Override public void close() throws SQLException {
    try {
      closePortals();
      for (PgPrepared statement : prepared.values()) {
        statement.close();
      }
      closedStatements.close();
      if (status != Status.IDLE || implicit) {
        connection.rollback();
      }
    } finally {
      connection.close();
    }
  }
}
