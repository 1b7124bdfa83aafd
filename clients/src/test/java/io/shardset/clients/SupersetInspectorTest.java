package io.shardset.clients;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What Superset asks when a database is added and a dataset is created, through SQLAlchemy
 * over a JDBC bridge: the connection test ({@code SELECT 1}), then the inspector's
 * get_schema_names, get_table_names, get_view_names, get_columns, get_pk_constraint,
 * get_foreign_keys, get_indexes and get_table_comment, each as the DatabaseMetaData call a
 * bridge makes for it, then the data preview and a chart's query over a virtual dataset.
 */
class SupersetInspectorTest extends ConnectSequenceTestBase {
  @ParameterizedTest @EnumSource(Via.class)
  void addDatabaseAndDataset(Via via) throws Exception {
    try (Connection c = connect(via)) {
      try (Statement s = c.createStatement()) {
        assertEquals(List.of("1"), ShardFixture.rows(s.executeQuery("SELECT 1")));
      }
      final DatabaseMetaData md = c.getMetaData();
      assertTrue(rows(md.getSchemas(), "TABLE_SCHEM").contains(ShardedFixture.SCHEMA));
      assertEquals(List.of("CUSTOMERS", "ORDERS", "REGIONS"), rows(md.getTables(null,
          ShardedFixture.SCHEMA, "%", new String[] {"TABLE"}), "TABLE_NAME"));
      assertEquals(List.of(), rows(md.getTables(null, ShardedFixture.SCHEMA, "%",
          new String[] {"VIEW"}), "TABLE_NAME"));
      for (String table : ShardedFixture.TABLES) {
        rows(md.getColumns(null, ShardedFixture.SCHEMA, table, "%"), "COLUMN_NAME",
            "TYPE_NAME", "NULLABLE", "COLUMN_DEF", "REMARKS");
        final List<String> key = rows(md.getPrimaryKeys(null, ShardedFixture.SCHEMA, table),
            "COLUMN_NAME", "PK_NAME");
        if (via == Via.EMBEDDED) {
          assertEquals(List.of((table.equals("REGIONS") ? "CODE" : "ID") + "|" + table + "_PK"),
              key);
        }
        rows(md.getImportedKeys(null, ShardedFixture.SCHEMA, table), "FK_NAME",
            "FKCOLUMN_NAME", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME");
        rows(md.getIndexInfo(null, ShardedFixture.SCHEMA, table, false, false), "INDEX_NAME",
            "NON_UNIQUE", "COLUMN_NAME");
        assertEquals(List.of(table + "|null"), rows(md.getTables(null, ShardedFixture.SCHEMA,
            table, null), "TABLE_NAME", "REMARKS"));
      }
      assertOrdersColumns(md.getColumns(null, ShardedFixture.SCHEMA, "ORDERS", "%"));
      // The data preview and a bar chart's query over a virtual (SQL) dataset.
      final String preview = "SELECT * FROM \"S\".\"ORDERS\" ORDER BY \"ID\" LIMIT 100";
      final String chart = "SELECT \"STATUS\" AS \"STATUS\", COUNT(*) AS \"count\" FROM"
          + " (SELECT * FROM ORDERS WHERE TOTAL > 100) AS virtual_table GROUP BY \"STATUS\""
          + " ORDER BY \"count\" DESC, \"STATUS\" NULLS FIRST LIMIT 10000";
      for (String sql : List.of(preview, chart)) {
        try (Statement s = c.createStatement()) {
          assertEquals(fixture.expected(sql), ShardFixture.rows(s.executeQuery(sql)), sql);
        }
      }
    }
  }
}
