package io.shardset.calcite;

import io.shardset.testing.MariaDbServer;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MariaDB reads every string literal the dialect writes as the text it was given, whether or
 * not the session reads backslashes as escapes, and the dialect learns which from the session.
 */
class MariaDbSqlDialectTest {
  @Test void literalsReadBackInBothModes() throws SQLException {
    MariaDbServer.require();
    try (Connection c = MariaDbServer.admin()) {
      // The server's default: backslashes escape.
      assertLiteralsReadBack(c, true);
      try (Statement s = c.createStatement()) {
        s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
      }
      assertLiteralsReadBack(c, false);
    }
  }

  @Test void dialectFollowsTheSession() throws SQLException {
    MariaDbServer.require();
    try (Connection c = MariaDbServer.admin()) {
      try (Statement s = c.createStatement()) {
        s.execute("SET SESSION sql_mode = ''");
      }
      assertEquals("'a\\\\b'", new Dialects().of(c.getMetaData()).quoteStringLiteral("a\\b"));
      try (Statement s = c.createStatement()) {
        s.execute("SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT'");
      }
      assertEquals("'a\\b'", new Dialects().of(c.getMetaData()).quoteStringLiteral("a\\b"));
    }
  }

  private static void assertLiteralsReadBack(Connection c, boolean backslashEscapes)
      throws SQLException {
    final SqlDialect dialect = new MariaDbSqlDialect(MysqlSqlDialect.DEFAULT_CONTEXT,
        backslashEscapes);
    final List<String> expected = new ArrayList<>();
    final List<String> actual = new ArrayList<>();
    for (String text : LiteralInjectionTest.PAYLOADS) {
      expected.add(text);
      try (Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT " + dialect.quoteStringLiteral(text))) {
        rs.next();
        actual.add(rs.getString(1));
      }
    }
    assertEquals(expected, actual);
  }
}
