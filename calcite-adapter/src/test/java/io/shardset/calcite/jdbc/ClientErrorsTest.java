package io.shardset.calcite.jdbc;

import io.shardset.calcite.runtime.WriteFailedException;
import io.shardset.execution.ShardException;

import org.apache.calcite.avatica.AvaticaSqlException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlValidatorException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The SQLState and reason of each kind of failure, as Calcite, ShardSet's execution and its
 * shards' drivers throw them; ClientErrorsTest in the cli module checks the states a live
 * server and {@code jdbc:shardset:} give.
 */
class ClientErrorsTest {
  private static final String TIMED_OUT = "query timeout of 1000 ms elapsed (ERROR: canceling"
      + " statement due to user request)";

  private static final String TERMINATED =
      "FATAL: terminating connection due to administrator command";
  private static final String MOVING =
      "table S.T: key 5 is in a range being moved; retry after the move";

  static Stream<Arguments> failures() throws Exception {
    return Stream.of(
        Arguments.of("42000", "Encountered \"T\" at line 1, column 15.",
            new RuntimeException("parse failed", parseError("SELECT * FORM T"))),
        Arguments.of("42S02", "From line 1, column 15 to line 1, column 18: Object 'NOPE' not"
            + " found", invalid("From line 1, column 15 to line 1, column 18",
            "Object 'NOPE' not found")),
        Arguments.of("42S02", "From line 1, column 15 to line 1, column 20: Object 'NOPE' not"
            + " found within 'S'", invalid("From line 1, column 15 to line 1, column 20",
            "Object 'NOPE' not found within 'S'")),
        Arguments.of("42S22", "From line 1, column 8 to line 1, column 11: Column 'NOPE' not"
            + " found in any table", invalid("From line 1, column 8 to line 1, column 11",
            "Column 'NOPE' not found in any table")),
        Arguments.of("42000", "From line 1, column 8 to line 1, column 14: Cannot apply '+' to"
            + " arguments of type '<CHAR(1)> + <BOOLEAN>'", invalid("From line 1, column 8 to"
            + " line 1, column 14", "Cannot apply '+' to arguments of type"
            + " '<CHAR(1)> + <BOOLEAN>'")),
        Arguments.of("57014", "shard 's1' failed: " + TIMED_OUT, new RuntimeException(
            new ShardException("s1", TIMED_OUT, new SQLTimeoutException(TIMED_OUT)))),
        Arguments.of("57014", "shard 's1' failed: " + TIMED_OUT, new RuntimeException(
            new ShardException("s1", TIMED_OUT, new SQLException(
                "ERROR: canceling statement due to user request", "57014")))),
        Arguments.of("57014", "Statement canceled",
            new RuntimeException(new CancellationException("Statement canceled"))),
        Arguments.of("57014", "Statement canceled", new SQLException("Statement canceled")),
        Arguments.of("08001", "shard 's1' failed: shardset-s1 - Connection is not available",
            shardFailure(new SQLTransientConnectionException(
                "shardset-s1 - Connection is not available", "55000"))),
        Arguments.of("08001", "shard 's1' failed: Connection to 127.0.0.1:1 refused",
            shardFailure(new SQLException("Connection to 127.0.0.1:1 refused", "08001"))),
        Arguments.of("08006", "shard 's1' failed: " + TERMINATED, shardFailure(
            new SQLException(TERMINATED, "57P01"))),
        Arguments.of("42P01", "shard 's1' failed: ERROR: relation \"items\" does not exist",
            shardFailure(new SQLException("ERROR: relation \"items\" does not exist",
                "42P01"))),
        Arguments.of("HY000", "shard 's1' failed: injected", shardFailure(
            new SQLException("injected"))),
        Arguments.of("40001", MOVING, new RuntimeException(
            new WriteFailedException(new SQLException(MOVING, "40001")))),
        Arguments.of("08001", "table S.T: shard 's1' failed: refused",
            new RuntimeException(new WriteFailedException(new SQLException(
                "table S.T: shard 's1' failed: refused", "08001")))),
        Arguments.of("22012", "/ by zero",
            new ExceptionInInitializerError(new ArithmeticException("/ by zero"))),
        Arguments.of("HY000", "boom", new RuntimeException(
            new SQLException("Error while executing SQL \"SELECT 1\": boom"))),
        Arguments.of("42000", "Encountered \"T\" at line 1, column 15.",
            new RuntimeException(new AvaticaSqlException("Error while executing SQL"
                + " \"SELECT * FORM T\": Encountered \"T\" at line 1, column 15.", "42000", 0,
                List.of(), null))));
  }

  private static SqlParseException parseError(String sql) {
    try {
      SqlParser.create(sql).parseQuery();
    } catch (SqlParseException e) {
      return e;
    }
    throw new AssertionError("parsed: " + sql);
  }

  private static RuntimeException invalid(String position, String reason) {
    // As Calcite's validator makes them: the message is the position; the cause's reason
    // follows it in getMessage().
    return new RuntimeException(new CalciteContextException(position,
        new SqlValidatorException(reason, null)));
  }

  private static RuntimeException shardFailure(SQLException cause) {
    return new RuntimeException(new ShardException("s1", cause.getMessage(), cause));
  }

  @ParameterizedTest @MethodSource("failures")
  void eachFailureGetsItsStateAndReason(String state, String reason, Throwable failure) {
    final SQLException e = ClientErrors.classify(failure);
    assertEquals(state, e.getSQLState());
    assertEquals(reason, e.getMessage());
    assertSame(failure, e.getCause());
  }

  @Test void aClassifiedFailureStaysAsItIs() {
    final SQLException classified = ClientErrors.classify(new CancellationException("stop"));
    assertSame(classified, ClientErrors.classify(new RuntimeException(classified)));
  }
}
