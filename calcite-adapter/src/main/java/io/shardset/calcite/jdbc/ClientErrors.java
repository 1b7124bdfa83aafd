package io.shardset.calcite.jdbc;

import io.shardset.calcite.guard.StatementRefusedException;
import io.shardset.calcite.runtime.WriteFailedException;
import io.shardset.execution.ShardException;
import io.shardset.execution.ShardStates;
import io.shardset.topology.LeaseLostException;

import org.apache.calcite.avatica.AvaticaSqlException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CancellationException;
import java.util.regex.Pattern;

/**
 * The SQLState and the one readable message a JDBC client gets for a failed statement, on
 * {@code jdbc:shardset:} and through a ShardSet server alike. Calcite and Avatica wrap a
 * failure in exceptions without a state (a client sees {@code 00000} or null) whose messages
 * repeat the SQL text; this class finds the failure inside and names it:
 *
 * <ul>
 *   <li>{@value #SYNTAX_ERROR}: the parser's reason and position, or another validation error;
 *   <li>{@value #UNKNOWN_TABLE} and {@value #UNKNOWN_COLUMN}: the X/Open (ODBC) states that H2,
 *       MariaDB and MySQL give, rather than PostgreSQL's 42P01 and 42703;
 *   <li>{@value #CANCELED}: a statement canceled or out of time, wherever it stopped;
 *   <li>{@value #DIVISION_BY_ZERO}: a division by zero in ShardSet's own evaluation;
 *   <li>{@value #UNREACHABLE}: a shard no connection could be opened to, named;
 *   <li>a statement ShardSet refuses before reaching a shard, with the state it gives: 42000
 *       for a hint it cannot follow, 54000 for a scatter a guardrail denies;
 *   <li>a write's own state (40001 for a row whose range is moving, 25006 for a read-only
 *       connection, 08001 for a shard it could not reach), and a shard's own state;
 *   <li>08006 for a process that lost its lease on the model's catalog;
 *   <li>{@value #GENERAL_ERROR} when nothing says more.
 * </ul>
 *
 * <p>The message never holds the SQL text: Avatica's statement puts it in front once
 * (on {@code jdbc:avatica:remote:}; {@code jdbc:shardset:remote:} does not). It holds
 * no password either: shard failures are redacted where they are made.
 */
public final class ClientErrors {
  /** SQLState of a statement that does not parse or does not validate. */
  public static final String SYNTAX_ERROR = "42000";
  /** SQLState of a table (or schema) that does not exist. */
  public static final String UNKNOWN_TABLE = "42S02";
  /** SQLState of a column that does not exist. */
  public static final String UNKNOWN_COLUMN = "42S22";
  /** SQLState of a user who lacks the privilege for a statement. */
  public static final String PERMISSION_DENIED = "42501";
  /** SQLState of a statement canceled, or stopped by its timeout. */
  public static final String CANCELED = "57014";
  /** SQLState of a shard that cannot be reached. */
  public static final String UNREACHABLE = "08001";
  /** SQLState of a shard whose connection broke while it served the statement. */
  public static final String CONNECTION_FAILURE = "08006";
  /** SQLState of a division by zero. */
  public static final String DIVISION_BY_ZERO = "22012";
  /** SQLState of a failure nothing says more about. */
  public static final String GENERAL_ERROR = "HY000";
  /** SQLState of a NULL for a column that does not allow one (not null violation). */
  public static final String NOT_NULL = "23502";
  /** SQLState of a text that is no value of the type it is cast to. */
  public static final String INVALID_CAST = "22018";
  /** SQLState of a number too large for its type. */
  public static final String OUT_OF_RANGE = "22003";

  /** How Avatica's result set says that its statement was canceled, without a state. */
  private static final String AVATICA_CANCELED = "Statement canceled";
  /** What Avatica's statement writes in front of a failure's message. */
  private static final Pattern EXECUTING =
      Pattern.compile("(?s)^Error while executing SQL \".*?\": ");
  private static final Pattern UNKNOWN_TABLE_REASON =
      Pattern.compile("^(Object|Table) '.*' not found.*", Pattern.DOTALL);
  private static final Pattern UNKNOWN_COLUMN_REASON =
      Pattern.compile("^(Column '.*' not found|Unknown identifier '.*').*", Pattern.DOTALL);
  /** Calcite's validator on an INSERT that leaves a NOT NULL column without a value. */
  private static final Pattern NOT_NULL_REASON = Pattern.compile(
      "^Column '.*' has no default value and does not allow NULLs.*", Pattern.DOTALL);
  /** Calcite's cast of a number into a type too small for it. */
  private static final Pattern OUT_OF_RANGE_REASON =
      Pattern.compile("^(Value .* (out of range|cannot be represented as a DECIMAL)"
          + "|integer overflow|long overflow).*", Pattern.DOTALL);

  private ClientErrors() {
  }

  /**
   * The failure as a client should get it: an SQLException with the state and reason, whose
   * cause is {@code failure}. A failure classified here already is returned as it is.
   *
   * @param failure what a statement, or its preparation, threw
   */
  public static SQLException classify(Throwable failure) {
    final Classified known = find(failure, Classified.class);
    if (known != null) {
      return known;
    }
    final StatementRefusedException refused = find(failure, StatementRefusedException.class);
    if (refused != null) {
      return new Classified(String.valueOf(refused.getMessage()), refused.sqlState(), 0,
          failure);
    }
    final LeaseLostException leaseLost = find(failure, LeaseLostException.class);
    if (leaseLost != null) {
      return new Classified(String.valueOf(leaseLost.getMessage()), leaseLost.sqlState(), 0,
          failure);
    }
    final SqlParseException parse = find(failure, SqlParseException.class);
    if (parse != null) {
      return new Classified(firstLine(parse.getMessage()), SYNTAX_ERROR, 0, failure);
    }
    final CalciteContextException invalid = find(failure, CalciteContextException.class);
    if (invalid != null) {
      return new Classified(String.valueOf(invalid.getMessage()), validationState(invalid), 0,
          failure);
    }
    final WriteFailedException write = find(failure, WriteFailedException.class);
    if (write != null) {
      final SQLException cause = write.failure();
      return new Classified(String.valueOf(cause.getMessage()), stateOr(cause, GENERAL_ERROR),
          cause.getErrorCode(), failure);
    }
    final ShardException shard = find(failure, ShardException.class);
    final NumberFormatException notANumber = find(failure, NumberFormatException.class);
    if (shard == null && notANumber != null) {
      return new Classified("invalid number for the column's type: "
          + notANumber.getMessage(), INVALID_CAST, 0, failure);
    }
    final SQLException stated = stated(failure);
    final String state = canceled(failure) ? CANCELED
        : shard != null ? shardState(shard)
        : dividedByZero(failure) ? DIVISION_BY_ZERO
        : outOfRange(failure) ? OUT_OF_RANGE
        : stated != null ? stateOr(stated, GENERAL_ERROR)
        : GENERAL_ERROR;
    final String reason = shard != null ? String.valueOf(shard.getMessage())
        : stated != null ? reason(stated)
        : reason(failure);
    return new Classified(reason, state, stated == null ? 0 : stated.getErrorCode(), failure);
  }

  /**
   * A failure whose state and message are the ones the client gets, as it is: later
   * classifications keep it (a deadlock's 40P01 around the cancel that ended the statement,
   * say, which would otherwise read as 57014).
   */
  public static SQLException keep(SQLException failure) {
    return failure instanceof Classified ? failure
        : new Classified(String.valueOf(failure.getMessage()), stateOr(failure, GENERAL_ERROR),
            failure.getErrorCode(), failure);
  }

  /** The state of a validation error: an unknown table or column, or any other. */
  private static String validationState(CalciteContextException invalid) {
    final Throwable cause = invalid.getCause();
    final String reason = cause == null ? "" : String.valueOf(cause.getMessage());
    return UNKNOWN_TABLE_REASON.matcher(reason).matches() ? UNKNOWN_TABLE
        : UNKNOWN_COLUMN_REASON.matcher(reason).matches() ? UNKNOWN_COLUMN
        : NOT_NULL_REASON.matcher(reason).matches() ? NOT_NULL
        : SYNTAX_ERROR;
  }

  /** Whether a cast of the statement met a number too large for its type. */
  private static boolean outOfRange(Throwable failure) {
    final ArithmeticException arithmetic = find(failure, ArithmeticException.class);
    return arithmetic != null
        && OUT_OF_RANGE_REASON.matcher(String.valueOf(arithmetic.getMessage())).matches();
  }

  /** Whether Java arithmetic of the statement divided by zero. */
  private static boolean dividedByZero(Throwable failure) {
    final ArithmeticException arithmetic = find(failure, ArithmeticException.class);
    return arithmetic != null && String.valueOf(arithmetic.getMessage()).contains("by zero");
  }

  /** Whether the statement stopped because it was canceled or ran out of time. */
  private static boolean canceled(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof CancellationException
          || t instanceof SQLTimeoutException timeout
              && !ShardStates.LOCK_NOT_AVAILABLE.equals(ShardStates.of(timeout))
          || t instanceof SQLException sql && (CANCELED.equals(sql.getSQLState())
              || sql.getSQLState() == null && AVATICA_CANCELED.equals(sql.getMessage()))) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /**
   * The state of a shard's failure: {@value #UNREACHABLE} when no connection could be opened
   * (the pool timed out, the connection was refused, the shard said so with a class 08
   * state), {@value #CONNECTION_FAILURE} when the shard ended the connection (PostgreSQL's
   * class 57P, an operator or a shutdown), else the shard's own state, or
   * {@value #GENERAL_ERROR} when it gave none.
   */
  private static String shardState(ShardException shard) {
    for (Throwable t = shard; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException || t instanceof ConnectException) {
        return UNREACHABLE;
      }
    }
    final SQLException stated = stated(shard);
    if (stated == null) {
      return GENERAL_ERROR;
    }
    if (stated.getSQLState().startsWith("08")) {
      return UNREACHABLE;
    }
    return stated.getSQLState().startsWith("57P") ? CONNECTION_FAILURE
        : ShardStates.of(stated);
  }

  /** The first SQLException of the chain with a state that says something. */
  private static @Nullable SQLException stated(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null
          && !sql.getSQLState().isEmpty() && !"00000".equals(sql.getSQLState())) {
        return sql;
      }
    }
    return null;
  }

  private static String stateOr(SQLException e, String otherwise) {
    return e.getSQLState() == null || e.getSQLState().isEmpty() ? otherwise : e.getSQLState();
  }

  /**
   * The message of an SQLException without what Avatica added: its {@code Error n (state) : }
   * in front, and the statement's SQL text.
   */
  private static String reason(SQLException e) {
    final String message = e instanceof AvaticaSqlException avatica
        ? avatica.getErrorMessage() : e.getMessage();
    return EXECUTING.matcher(String.valueOf(message)).replaceFirst("");
  }

  /**
   * The message of the first exception of the chain that has its own: wrappers that repeat
   * their cause's ({@code new RuntimeException(cause)}) or add the SQL text say nothing more.
   */
  private static String reason(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      final String message = t.getMessage();
      final Throwable cause = t.getCause();
      if (message == null || cause != null && message.equals(cause.toString())) {
        continue;
      }
      final String own = EXECUTING.matcher(message).replaceFirst("");
      if (!own.isEmpty()) {
        return own;
      }
    }
    return failure.toString();
  }

  private static String firstLine(@Nullable String message) {
    final String text = String.valueOf(message);
    final int end = text.indexOf('\n');
    return (end < 0 ? text : text.substring(0, end)).trim();
  }

  private static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /** A failure classified here: its message is the reason alone. */
  static final class Classified extends SQLException {
    private static final long serialVersionUID = 1L;

    Classified(String reason, String state, int code, Throwable cause) {
      super(reason, state, code, cause);
    }
  }

  /**
   * Throws {@code e} although the caller declares no checked exception: the methods of a
   * {@code Meta}, which Avatica's connection calls from methods that declare
   * {@link SQLException}. Declared to return an exception so that callers can write
   * {@code throw raise(e)}.
   */
  public static RuntimeException raise(SQLException e) {
    throw ClientErrors.<RuntimeException>unchecked(e);
  }

  @SuppressWarnings("unchecked")
  private static <E extends Exception> E unchecked(Exception e) throws E {
    throw (E) e;
  }
}
