package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code jdbc:shardset:} connections accept what BI tools write, {@code GROUP BY 1} and
 * select-list aliases in GROUP BY and ORDER BY, with the server's LENIENT conformance unless
 * their URL or properties name another; {@code jdbc:calcite:} ones keep Calcite's default.
 */
class ConformanceTest extends SalesDataTestBase {
  private static final String BY_ORDINAL = "SELECT REGION, COUNT(*) AS N FROM CUSTOMERS"
      + " GROUP BY 1 ORDER BY N DESC, REGION";
  /** What Calcite's default conformance makes of {@code GROUP BY 1}: a constant key. */
  private static final String NOT_GROUPED = "From line 1, column 8 to line 1, column 13:"
      + " Expression 'REGION' is not being grouped";

  @Override Connection open(String model) throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  @Test void groupByOrdinalAndAliasesByDefault() throws SQLException {
    // The oracle, H2, takes neither an ordinal nor an alias in GROUP BY: it gets the column.
    final List<String> expected =
        fixture.oracleRows(BY_ORDINAL.replace("GROUP BY 1", "GROUP BY REGION"));
    assertEquals(6, expected.size());
    assertEquals(expected, rows(BY_ORDINAL));
    final String byAlias = "SELECT SUBSTRING(NAME FROM 1 FOR 10) AS PREFIX, COUNT(*) AS N"
        + " FROM CUSTOMERS WHERE CUSTOMER_ID < 40 GROUP BY PREFIX ORDER BY PREFIX";
    assertEquals(fixture.oracleRows(byAlias.replace("GROUP BY PREFIX",
        "GROUP BY SUBSTRING(NAME FROM 1 FOR 10)")), rows(byAlias));
  }

  @Test void aConformanceNamedInThePropertiesIsKept() throws SQLException {
    final Properties info = Connector.info(SalesData.model(fixture));
    info.setProperty("conformance", "DEFAULT");
    try (Connection c = DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info)) {
      assertRefused(c);
    }
  }

  @Test void aConformanceNamedInTheUrlIsKept() throws SQLException {
    try (Connection c = DriverManager.getConnection(
        ShardSetDriver.CONNECT_STRING_PREFIX + "conformance=DEFAULT",
        Connector.info(SalesData.model(fixture)))) {
      assertRefused(c);
    }
  }

  @Test void calciteConnectionsKeepCalcitesDefault() throws SQLException {
    try (Connection c = Connector.CALCITE.open(SalesData.model(fixture))) {
      final SQLException e = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, BY_ORDINAL));
      assertEquals(NOT_GROUPED, e.getCause().getMessage());
    }
  }

  private static void assertRefused(Connection c) {
    final SQLException e = assertThrows(SQLException.class,
        () -> ShardFixture.rows(c, BY_ORDINAL));
    assertEquals("42000", e.getSQLState());
    assertEquals(NOT_GROUPED, e.getMessage());
  }
}
