package io.shardset.cli.server.pg;

import io.shardset.testing.PostgresServer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Values in PostgreSQL's text format, against PostgreSQL itself: for each type, edge values are
 * read through pgJDBC as objects, and their text must be what PostgreSQL sent for them (its
 * output function's, which a cast to text is not: {@code true::text} is {@code true}, the
 * wire's {@code t}). A {@code time} is read as a {@code LocalTime}, which keeps microseconds.
 */
class PgTextTest {
  /** A type and literals of it. */
  record Values(String type, List<String> literals) {
    @Override public String toString() {
      return type;
    }
  }

  static Stream<Values> values() {
    return Stream.of(
        new Values("boolean", List.of("true", "false")),
        new Values("smallint", List.of("0", "-32768", "32767")),
        new Values("integer", List.of("0", "-2147483648", "2147483647")),
        new Values("bigint", List.of("0", "-9223372036854775808", "9223372036854775807")),
        new Values("numeric(20,6)", List.of("0", "1.5", "-0.0001", "123456789.123456",
            "100")),
        new Values("numeric", List.of("0.000001", "1e20", "-12.3400", "0.1e-10")),
        new Values("double precision", List.of("0", "'-0'", "1", "0.1", "-1.5", "100",
            "123456.789", "1e14", "1e15", "1.5e15", "123456789012345678", "0.0001",
            "0.00001", "1.5e-7", "1e100", "-2.5e-300", "'NaN'", "'Infinity'", "'-Infinity'",
            "1.7976931348623157e308", "4.9e-324", "0.3", "2.2250738585072014e-308")),
        new Values("real", List.of("0", "1", "0.1", "-1.5", "100000", "999999", "1000000",
            "1.5e6", "0.0001", "0.00001", "3.4028235e38", "1.4e-45", "'NaN'", "'-Infinity'",
            "123.456")),
        new Values("text", List.of("''", "'a;b'", "'it''s'", "'naïve ✓'")),
        new Values("varchar(10)", List.of("'abc'")),
        new Values("char(5)", List.of("'ab'")),
        new Values("date", List.of("'1999-12-31'", "'2024-02-29'", "'0001-01-01'",
            "'9999-12-31'")),
        new Values("time", List.of("'00:00:00'", "'12:34:56.5'", "'23:59:59.999999'",
            "'01:02:03.000100'")),
        new Values("timestamp", List.of("'2024-02-29 23:59:59.123456'",
            "'2024-01-01 00:00:00'", "'1970-01-01 00:00:00.1'", "'2038-01-19 03:14:08.01'")),
        new Values("bytea", List.of("'\\x'", "'\\x00ff10'", "'\\xdeadbeef'")),
        new Values("uuid", List.of("'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("values")
  void writesWhatPostgresqlPrints(Values values) throws SQLException {
    PostgresServer.require();
    final List<String> expected = new ArrayList<>();
    final List<String> actual = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(PostgresServer.url("postgres"), "postgres",
        ""); Statement s = c.createStatement()) {
      for (String literal : values.literals()) {
        // A plain statement: pgJDBC asks for text, and getString is the server's own text.
        try (ResultSet rs = s.executeQuery("SELECT CAST(" + literal + " AS " + values.type()
            + ")")) {
          rs.next();
          expected.add(literal + " -> " + rs.getString(1));
          actual.add(literal + " -> " + PgText.of(values.type().equals("time")
              ? rs.getObject(1, LocalTime.class) : rs.getObject(1)));
        }
      }
    }
    assertEquals(expected, actual);
  }
}
