package io.shardset.calcite.jdbc;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jdbc:shardset:} connections have PostgreSQL's functions unless their {@code fun}
 * property names other libraries; {@code jdbc:calcite:} ones keep Calcite's default.
 */
class FunctionLibrariesTest {
  private static final String CONCAT = "SELECT CONCAT('a', CAST(NULL AS VARCHAR), 'c'),"
      + " LEFT('hello', 2), SUBSTR('hello', 2, 3), LENGTH('hello'),"
      + " CASE WHEN 'Hello' ILIKE 'h%' THEN 1 ELSE 0 END, 'a' || CAST(NULL AS VARCHAR)";

  private static Connection connect(String url, String fun) throws SQLException {
    final Properties info = new Properties();
    if (fun != null) {
      info.setProperty("fun", fun);
    }
    return DriverManager.getConnection(url, info);
  }

  @Test void shardSetConnectionsHavePostgresqlFunctions() throws SQLException {
    try (Connection c = connect(ShardSetDriver.CONNECT_STRING_PREFIX, null)) {
      assertEquals(List.of("ac, he, ell, 5, 1, NULL"), ShardFixture.rows(c, CONCAT));
    }
  }

  @Test void aFunPropertyIsKept() throws SQLException {
    try (Connection c = connect(ShardSetDriver.CONNECT_STRING_PREFIX, "standard,mysql")) {
      assertEquals(List.of("NULL"),
          ShardFixture.rows(c, "SELECT CONCAT('a', CAST(NULL AS VARCHAR), 'c')"));
    }
    try (Connection c = connect(ShardSetDriver.CONNECT_STRING_PREFIX + "fun=standard", null)) {
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT LEFT('hello', 2)"));
      assertTrue(e.getMessage().contains("No match found for function signature LEFT"),
          e.getMessage());
    }
  }

  @Test void calciteConnectionsKeepCalcitesDefault() throws SQLException {
    try (Connection c = connect("jdbc:calcite:", null)) {
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT LEFT('hello', 2)"));
      assertTrue(e.getMessage().contains("No match found for function signature LEFT"),
          e.getMessage());
    }
  }
}
