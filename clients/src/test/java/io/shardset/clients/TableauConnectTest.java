package io.shardset.clients;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The calls Tableau's "Other Databases (JDBC)" connector makes: the schema and table lists of
 * the data source page, columns and types, a {@code WHERE 1=0} probe whose result metadata
 * gives a table's or a custom SQL's columns, the capability probes for LIMIT, TOP and
 * temporary tables (a refused probe must fail cleanly, so that Tableau picks another syntax),
 * and a first extract-style query.
 */
class TableauConnectTest extends ConnectSequenceTestBase {
  /** The columns of a result as Tableau reads them: label, JDBC type, type name, nullable. */
  private static List<String> columns(ResultSetMetaData md) throws SQLException {
    final List<String> columns = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      columns.add(md.getColumnLabel(i) + "|" + md.getColumnType(i) + "|"
          + md.getColumnTypeName(i) + "|" + md.isNullable(i));
    }
    return columns;
  }

  @ParameterizedTest @EnumSource(Via.class)
  void connectAndDescribe(Via via) throws Exception {
    try (Connection c = connect(via)) {
      final DatabaseMetaData md = c.getMetaData();
      md.getDatabaseProductName();
      md.getIdentifierQuoteString();
      md.supportsSchemasInDataManipulation();
      md.supportsCatalogsInDataManipulation();
      count(md.getCatalogs());
      rows(md.getSchemas(), "TABLE_SCHEM", "TABLE_CATALOG");
      assertEquals(List.of("CUSTOMERS", "ORDERS", "REGIONS"), rows(md.getTables(null,
          ShardedFixture.SCHEMA, "%", new String[] {"TABLE", "VIEW"}), "TABLE_NAME"));
      assertOrdersColumns(md.getColumns(null, ShardedFixture.SCHEMA, "ORDERS", "%"));
      assertTypeInfo(md.getTypeInfo());
      final List<String> ordersColumns = new ArrayList<>();
      for (String column : ORDERS_COLUMNS) {
        ordersColumns.add(column.substring(0, column.lastIndexOf('|')));
      }
      // The table's columns from an empty result, prepared and then run.
      try (PreparedStatement p = c.prepareStatement(
          "SELECT * FROM \"S\".\"ORDERS\" WHERE 1=0")) {
        try (ResultSet rs = p.executeQuery()) {
          assertFalse(rs.next());
          final List<String> got = new ArrayList<>();
          for (String column : columns(rs.getMetaData())) {
            got.add(column.substring(0, column.lastIndexOf('|')));
          }
          assertEquals(ordersColumns, got);
        }
      }
      // A custom SQL wrapped as Tableau wraps it.
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT * FROM (SELECT STATUS, SUM(TOTAL) AS T FROM ORDERS GROUP BY STATUS)"
              + " \"Custom SQL Query\" WHERE 1=0")) {
        assertFalse(rs.next());
        // A group's SUM of a NOT NULL column is never NULL: Calcite says so.
        assertEquals(List.of("STATUS|12|VARCHAR|1", "T|3|DECIMAL|0"), columns(rs.getMetaData()));
      }
      // Capability probes: LIMIT works; TOP and temporary tables are refused with an error.
      try (Statement s = c.createStatement()) {
        assertEquals(1, count(s.executeQuery("SELECT 1 AS \"COL\" FROM \"S\".\"ORDERS\" LIMIT 1")));
        assertThrows(SQLException.class, () -> s.executeQuery(
            "SELECT TOP 1 1 AS \"COL\" FROM \"S\".\"ORDERS\""));
        assertThrows(SQLException.class, () -> s.execute(
            "CREATE LOCAL TEMPORARY TABLE \"#Tableau_probe\" (\"COL\" INTEGER)"));
      }
      // The connection still works after the refused probes.
      final String extract = "SELECT \"ORDERS\".\"STATUS\" AS \"STATUS\","
          + " SUM(\"ORDERS\".\"TOTAL\") AS \"sum:TOTAL:ok\" FROM \"S\".\"ORDERS\" \"ORDERS\""
          + " GROUP BY 1 ORDER BY 1 NULLS FIRST";
      // GROUP BY 1 as Tableau writes it: ShardSet's connections and server sessions default
      // to Calcite's LENIENT conformance. The oracle, H2, groups by names only.
      final String expected = extract.replace("GROUP BY 1 ORDER BY 1",
          "GROUP BY \"ORDERS\".\"STATUS\" ORDER BY 1");
      try (Statement s = c.createStatement()) {
        assertEquals(fixture.expected(expected), ShardFixture.rows(s.executeQuery(extract)));
      }
    }
  }
}
