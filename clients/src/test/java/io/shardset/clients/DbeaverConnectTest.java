package io.shardset.clients;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The calls DBeaver's generic JDBC driver makes when it connects and opens a table: the
 * data source info it reads once (product, quoting, keywords, functions, supports*), the
 * navigator's catalogs, schemas, tables, columns, keys and indexes, the type list, and the
 * data editor's first page and row count (JDBCDataSource, JDBCDataSourceInfo and
 * GenericMetaModel in DBeaver's sources).
 */
class DbeaverConnectTest extends ConnectSequenceTestBase {
  @ParameterizedTest @EnumSource(Via.class)
  void connectAndBrowse(Via via) throws Exception {
    try (Connection c = connect(via)) {
      // JDBCDataSource.openConnection and the connection's first checks.
      c.setAutoCommit(true);
      assertTrue(c.getAutoCommit());
      c.getTransactionIsolation();
      assertFalse(c.isReadOnly());
      c.getCatalog();
      assertEquals(ShardedFixture.SCHEMA, c.getSchema());
      c.getWarnings();
      c.clearWarnings();
      // JDBCDataSourceInfo: read once per connection.
      final DatabaseMetaData md = c.getMetaData();
      assertNotNull(md.getDatabaseProductName());
      assertNotNull(md.getDatabaseProductVersion());
      assertNotNull(md.getDriverName());
      assertNotNull(md.getDriverVersion());
      md.getDatabaseMajorVersion();
      md.getDatabaseMinorVersion();
      md.getJDBCMajorVersion();
      assertEquals("\"", md.getIdentifierQuoteString());
      assertNotNull(md.getSQLKeywords());
      assertNotNull(md.getNumericFunctions());
      assertNotNull(md.getStringFunctions());
      assertNotNull(md.getSystemFunctions());
      assertNotNull(md.getTimeDateFunctions());
      md.getSearchStringEscape();
      md.getExtraNameCharacters();
      md.getCatalogTerm();
      md.getSchemaTerm();
      md.getProcedureTerm();
      md.getCatalogSeparator();
      md.isCatalogAtStart();
      md.supportsCatalogsInDataManipulation();
      md.supportsSchemasInDataManipulation();
      md.supportsCatalogsInTableDefinitions();
      md.supportsSchemasInTableDefinitions();
      md.storesUpperCaseIdentifiers();
      md.storesLowerCaseIdentifiers();
      md.storesMixedCaseIdentifiers();
      md.storesUpperCaseQuotedIdentifiers();
      md.supportsMixedCaseIdentifiers();
      md.supportsMixedCaseQuotedIdentifiers();
      md.supportsTransactions();
      md.getDefaultTransactionIsolation();
      for (int level : new int[] {Connection.TRANSACTION_READ_UNCOMMITTED,
          Connection.TRANSACTION_READ_COMMITTED, Connection.TRANSACTION_REPEATABLE_READ,
          Connection.TRANSACTION_SERIALIZABLE}) {
        md.supportsTransactionIsolationLevel(level);
      }
      md.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE);
      md.supportsBatchUpdates();
      md.supportsMultipleResultSets();
      md.supportsGetGeneratedKeys();
      md.supportsSavepoints();
      md.supportsStoredProcedures();
      md.getMaxTableNameLength();
      md.getMaxColumnNameLength();
      md.isReadOnly();
      md.getUserName();
      md.getURL();
      // GenericMetaModel: the navigator tree.
      count(md.getCatalogs());
      assertTrue(rows(md.getSchemas(), "TABLE_SCHEM").contains(ShardedFixture.SCHEMA));
      assertTrue(rows(md.getSchemas(null, "%"), "TABLE_SCHEM").contains(ShardedFixture.SCHEMA));
      assertTrue(rows(md.getTableTypes(), "TABLE_TYPE").contains("TABLE"));
      final List<String> tables = rows(md.getTables(null, ShardedFixture.SCHEMA, "%", null),
          "TABLE_NAME", "TABLE_TYPE");
      assertEquals(List.of("CUSTOMERS|TABLE", "ORDERS|TABLE", "REGIONS|TABLE"), tables);
      assertOrdersColumns(md.getColumns(null, ShardedFixture.SCHEMA, "ORDERS", "%"));
      // Every column of every table, as the navigator's cache loads them.
      assertEquals(11, count(md.getColumns(null, ShardedFixture.SCHEMA, "%", "%")));
      final List<String> key = rows(md.getPrimaryKeys(null, ShardedFixture.SCHEMA, "ORDERS"),
          "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
      if (via == Via.EMBEDDED) {
        assertEquals(List.of("ID|1|ORDERS_PK"), key);
      }
      count(md.getIndexInfo(null, ShardedFixture.SCHEMA, "ORDERS", false, true));
      count(md.getImportedKeys(null, ShardedFixture.SCHEMA, "ORDERS"));
      count(md.getExportedKeys(null, ShardedFixture.SCHEMA, "CUSTOMERS"));
      assertTypeInfo(md.getTypeInfo());
      count(md.getProcedures(null, ShardedFixture.SCHEMA, "%"));
      count(md.getFunctions(null, ShardedFixture.SCHEMA, "%"));
      // The data editor: the first page of rows, their columns, and the row count.
      try (Statement s = c.createStatement()) {
        s.setMaxRows(200);
        s.setFetchSize(200);
        try (ResultSet rs = s.executeQuery("SELECT * FROM \"S\".\"ORDERS\"")) {
          final ResultSetMetaData rsmd = rs.getMetaData();
          final List<String> columns = new ArrayList<>();
          for (int i = 1; i <= rsmd.getColumnCount(); i++) {
            columns.add(rsmd.getColumnLabel(i) + " " + rsmd.getColumnTypeName(i) + " "
                + rsmd.getPrecision(i) + " " + rsmd.getScale(i) + " " + rsmd.isNullable(i));
            rsmd.getTableName(i);
            rsmd.getSchemaName(i);
            rsmd.isAutoIncrement(i);
          }
          assertEquals(List.of("ID BIGINT 19 0 0", "CUSTOMER_ID BIGINT 19 0 0",
              "ORDERED_AT TIMESTAMP 3 0 0", "TOTAL DECIMAL 12 2 0", "STATUS VARCHAR 10 0 1"),
              columns);
          assertEquals(ShardedFixture.ORDERS, count(rs));
        }
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"S\".\"ORDERS\"")) {
          assertTrue(rs.next());
          assertEquals(ShardedFixture.ORDERS, rs.getInt(1));
        }
      }
    }
  }
}
