package io.shardset.clients;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The calls Metabase's sql-jdbc driver makes to sync a database (metabase.driver.sql-jdbc
 * .sync.describe-database and describe-table): the connection settings of a sync, schemas,
 * tables of its table types, the SELECT privilege probe per table, columns, primary keys,
 * foreign keys, indexes, and the fingerprint and field-values queries that follow.
 */
class MetabaseSyncTest extends ConnectSequenceTestBase {
  /** The table types describe-database asks for. */
  private static final String[] TABLE_TYPES = {"TABLE", "PARTITIONED TABLE", "VIEW",
      "FOREIGN TABLE", "MATERIALIZED VIEW", "EXTERNAL TABLE", "DYNAMIC_TABLE"};

  /** How Metabase prepares a sync connection (sql-jdbc.execute's connection options). */
  private static void prepareForSync(Connection c) throws SQLException {
    c.setReadOnly(true);
    c.setAutoCommit(true);
    final DatabaseMetaData md = c.getMetaData();
    // set-best-transaction-level!: the lowest isolation the database supports.
    if (md.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_UNCOMMITTED)) {
      c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
    } else if (md.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED)) {
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    }
    // Metabase would log a failure here and go on; ShardSet supports it, so it must not fail.
    c.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
  }

  @ParameterizedTest @EnumSource(Via.class)
  void syncDescribesEveryTable(Via via) throws Exception {
    try (Connection c = connect(via)) {
      prepareForSync(c);
      final DatabaseMetaData md = c.getMetaData();
      md.getDatabaseProductName();
      md.getDatabaseProductVersion();
      final List<String> schemas = rows(md.getSchemas(), "TABLE_SCHEM");
      assertTrue(schemas.contains(ShardedFixture.SCHEMA), schemas::toString);
      final List<String> tables = new ArrayList<>();
      for (String schema : schemas) {
        for (String table : rows(md.getTables(null, schema, "%", TABLE_TYPES), "TABLE_SCHEM",
            "TABLE_NAME", "TABLE_TYPE", "REMARKS")) {
          final String[] parts = table.split("\\|");
          // have-select-privilege?: the probe must run, or the table is left out.
          try (PreparedStatement probe = c.prepareStatement("SELECT TRUE AS \"_\" FROM \""
              + parts[0] + "\".\"" + parts[1] + "\" WHERE 1 <> 1 LIMIT 0")) {
            probe.setQueryTimeout(15);
            probe.execute();
          }
          tables.add(table);
        }
      }
      assertEquals(List.of("S|CUSTOMERS|TABLE|null", "S|ORDERS|TABLE|null",
          "S|REGIONS|TABLE|null"), tables);
      // describe-table and describe-table-fks, for each table. IS_AUTOINCREMENT is "" ("cannot
      // be determined", which JDBC allows); Metabase reads only "YES" as auto-increment.
      assertEquals(List.of("ID|BIGINT|1|NO|", "CUSTOMER_ID|BIGINT|2|NO|",
          "ORDERED_AT|TIMESTAMP|3|NO|", "TOTAL|DECIMAL|4|NO|", "STATUS|VARCHAR|5|YES|"),
          rows(md.getColumns(null, ShardedFixture.SCHEMA, "ORDERS", null), "COLUMN_NAME",
              "TYPE_NAME", "ORDINAL_POSITION", "IS_NULLABLE", "IS_AUTOINCREMENT"));
      for (String table : ShardedFixture.TABLES) {
        rows(md.getColumns(null, ShardedFixture.SCHEMA, table, null), "COLUMN_NAME",
            "DATA_TYPE", "TYPE_NAME", "REMARKS", "COLUMN_DEF", "COLUMN_SIZE");
        final List<String> key = rows(md.getPrimaryKeys(null, ShardedFixture.SCHEMA, table),
            "COLUMN_NAME");
        if (via == Via.EMBEDDED) {
          assertEquals(List.of(table.equals("REGIONS") ? "CODE" : "ID"), key);
        }
        rows(md.getImportedKeys(null, ShardedFixture.SCHEMA, table), "FKCOLUMN_NAME",
            "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME");
        rows(md.getIndexInfo(null, ShardedFixture.SCHEMA, table, false, false), "INDEX_NAME",
            "COLUMN_NAME", "ORDINAL_POSITION");
      }
      assertTypeInfo(md.getTypeInfo());
    }
  }

  /** Primary keys reach Metabase through the server as embedded. */
  @Test void primaryKeysThroughTheServer() throws Exception {
    try (Connection c = connect(Via.SHARDSET_REMOTE)) {
      assertEquals(List.of("ID"), rows(c.getMetaData().getPrimaryKeys(null,
          ShardedFixture.SCHEMA, "ORDERS"), "COLUMN_NAME"));
    }
  }

  /** The queries sync runs after describing: a fingerprint sample and a field's values, in
   * Metabase's quoting, compared with the reference. */
  @ParameterizedTest @EnumSource(Via.class)
  void fingerprintAndFieldValuesQueries(Via via) throws Exception {
    try (Connection c = connect(via)) {
      prepareForSync(c);
      final String sample = "SELECT \"S\".\"ORDERS\".\"ID\" AS \"ID\", \"S\".\"ORDERS\".\"TOTAL\""
          + " AS \"TOTAL\", \"S\".\"ORDERS\".\"STATUS\" AS \"STATUS\" FROM \"S\".\"ORDERS\""
          + " ORDER BY \"S\".\"ORDERS\".\"ID\" LIMIT 10000";
      final String values = "SELECT \"S\".\"ORDERS\".\"STATUS\" AS \"STATUS\""
          + " FROM \"S\".\"ORDERS\" GROUP BY \"S\".\"ORDERS\".\"STATUS\""
          + " ORDER BY \"S\".\"ORDERS\".\"STATUS\" ASC NULLS FIRST LIMIT 1000";
      for (String sql : List.of(sample, values)) {
        try (Statement s = c.createStatement()) {
          s.setMaxRows(10_000);
          assertEquals(fixture.expected(sql), ShardFixture.rows(s.executeQuery(sql)), sql);
        }
      }
    }
  }
}
