package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;

/**
 * A statement a Parse message prepared: what it is, its text with JDBC's markers, the types
 * its client declared for its parameters, and the embedded connection's statement, or none for
 * a statement the session answers itself ({@code BEGIN}, {@code SET}, ...).
 */
final class PgPrepared implements AutoCloseable {
  private final PgCommand command;
  private final SimpleQueryText.JdbcText text;
  private final int[] declaredOids;
  private final @Nullable PreparedStatement statement;
  /** The answer of a catalog query that is answered without running it, or null. */
  private final PgCannedQueries.@Nullable Answer canned;
  /** Where the statement goes once the client is done with it. */
  private final PgStatementCache cache;
  /** The JDBC type of each parameter, once asked for. */
  private int @Nullable [] jdbcTypes;
  /** For an {@code INSERT ... RETURNING}, the columns it returns; else null. */
  private final @Nullable List<PgColumn> returning;
  /** Whether a portal runs {@link #statement} now; another one then prepares its own. */
  private boolean lent;
  /** Whether the client closed or replaced it while a portal ran it: the portal goes on
   * (PostgreSQL's portals outlive their statements), and the statement closes after it. */
  private boolean dropped;

  PgPrepared(PgCommand command, SimpleQueryText.JdbcText text, int[] declaredOids,
      @Nullable PreparedStatement statement, PgCannedQueries.@Nullable Answer canned,
      @Nullable List<PgColumn> returning, PgStatementCache cache) {
    this.cache = cache;
    this.returning = returning == null ? null : List.copyOf(returning);
    this.canned = canned;
    this.command = command;
    this.text = text;
    this.declaredOids = declaredOids.clone();
    this.statement = statement;
  }

  PgCommand command() {
    return command;
  }

  SimpleQueryText.JdbcText text() {
    return text;
  }

  @Nullable PreparedStatement statement() {
    return statement;
  }

  PgCannedQueries.@Nullable Answer canned() {
    return canned;
  }

  /** For an {@code INSERT ... RETURNING}, the columns it returns; else null. */
  @Nullable List<PgColumn> returning() {
    return returning;
  }

  /** Another JDBC statement for the text, for a portal while one runs {@link #statement}. */
  PreparedStatement prepare(Connection connection) throws SQLException {
    return prepare(connection, text.sql(), returning);
  }

  /** A JDBC statement for {@code sql}; one of an INSERT that asks for the columns it returns
   * as generated keys when {@code returning} is not null. */
  static PreparedStatement prepare(Connection connection, String sql,
      @Nullable List<PgColumn> returning) throws SQLException {
    return returning == null ? connection.prepareStatement(sql)
        : connection.prepareStatement(sql,
            returning.stream().map(PgColumn::name).toArray(String[]::new));
  }

  /** How many parameters a Bind gives: the most the text refers to or the client declared. */
  int parameterCount() {
    return Math.max(declaredOids.length, text.parameterCount());
  }

  /** The type the client declared for parameter {@code number} (from 1), 0 for none. */
  int declaredOid(int number) {
    return number <= declaredOids.length ? declaredOids[number - 1] : 0;
  }

  /** The JDBC type of parameter {@code number} (from 1) in the statement. */
  int jdbcType(int number) throws SQLException {
    int[] types = jdbcTypes;
    if (types == null) {
      types = jdbcTypes();
      jdbcTypes = types;
    }
    return types[number - 1];
  }

  /** Each parameter's JDBC type, read once: every Bind needs them, and they do not change. */
  private int[] jdbcTypes() throws SQLException {
    final int[] types = new int[parameterCount()];
    Arrays.fill(types, Types.VARCHAR);
    final PreparedStatement prepared = statement;
    if (prepared != null) {
      final ParameterMetaData metaData = prepared.getParameterMetaData();
      final int[] numbers = text.numbers();
      // The first marker of each number gives its type.
      for (int marker = numbers.length - 1; marker >= 0; marker--) {
        if (numbers[marker] >= 1 && numbers[marker] <= types.length) {
          types[numbers[marker] - 1] = metaData.getParameterType(marker + 1);
        }
      }
    }
    return types;
  }

  /** The types of the parameters as a ParameterDescription gives them. */
  int[] parameterOids() throws SQLException {
    final int[] oids = new int[parameterCount()];
    for (int number = 1; number <= oids.length; number++) {
      final int declared = declaredOid(number);
      oids[number - 1] = declared != 0 ? declared
          : PgType.of(jdbcType(number), "", 0, 0).oid();
    }
    return oids;
  }

  /** Lends the statement to a portal; false if another portal has it. */
  boolean lend() {
    if (lent) {
      return false;
    }
    lent = true;
    return true;
  }

  /** Takes the statement back from its portal, and closes it if it was dropped meanwhile. */
  void giveBack() throws SQLException {
    lent = false;
    if (dropped) {
      close();
    }
  }

  /** Hands the statement to the session's cache, or, while a portal runs it, marks it to go
   * there after the portal. */
  @Override public void close() throws SQLException {
    if (lent) {
      dropped = true;
    } else if (statement != null && returning != null) {
      statement.close(); // it asks for keys: not for a plain INSERT of the same text
    } else if (statement != null) {
      cache.keep(text.sql(), statement);
    }
  }
}
