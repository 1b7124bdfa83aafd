package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.jdbc.CalciteConnection;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sharded table's statistic is the sum of its shards' own row estimates: exact on H2, as
 * ANALYZE left it on PostgreSQL; one copy of a duplicated table; every subpartition table of
 * a subpartitioned one; unknown, and no error, when a shard cannot be reached or no shard
 * estimates a row. Its columns' distinct values are PostgreSQL's statistics', scaled to the
 * table.
 */
class TableStatisticsTest {
  private static final List<String> SALES_TABLES = List.of("CUSTOMERS", "ORDERS", "EVENTS",
      "LEDGER", "ACCOUNTS", "VISITS", "COUNTRIES");

  @Test void h2TablesCountTheirShardsRows() throws SQLException {
    try (ShardFixture fixture = SalesData.fixture(Backend.H2)) {
      assertRowCountsAreTheOracles(fixture, SalesData.model(fixture), SALES_TABLES);
    }
  }

  @Test void postgresTablesCountWhatAnalyzeFound() throws SQLException {
    try (ShardFixture fixture = SalesData.fixture(Backend.POSTGRES)) {
      loadAndAnalyze(fixture);
      assertRowCountsAreTheOracles(fixture, SalesData.model(fixture), SALES_TABLES);
    }
  }

  @Test void postgresColumnsCountTheirDistinctValues() throws SQLException {
    try (ShardFixture fixture = SalesData.fixture(Backend.POSTGRES);
         ShardSetRuntime runtime = new ShardSetRuntime()) {
      loadAndAnalyze(fixture);
      final ShardSchema schema = runtime.connect(ShardFixture.SCHEMA,
          ShardFixture.operand(SalesData.model(fixture)));
      final ShardTable orders = schema.table("ORDERS");
      // A unique column: as many values as rows (ANALYZE keeps -1, a share of the rows).
      assertEquals(2000, orders.distinctValues(0).orElseThrow(), 0.5);
      // The shard key, a share of each shard's rows: scaled to the table's (ANALYZE estimates
      // it, here within a tenth).
      final double customers =
          oracleCount(fixture, "(SELECT DISTINCT CUSTOMER_ID FROM ORDERS) AS D");
      assertEquals(customers, orders.distinctValues(1).orElseThrow(), customers / 10);
      // A column of a few values, each on every shard: the shard's count is the table's.
      assertEquals(2, orders.distinctValues(4).orElseThrow(), 0.5);
      assertEquals(SalesData.REGIONS.length,
          schema.table("CUSTOMERS").distinctValues(2).orElseThrow(), 0.5);
    }
  }

  @Test void h2KeepsNoDistinctValues() throws SQLException {
    try (ShardFixture fixture = SalesData.fixture(Backend.H2);
         ShardSetRuntime runtime = new ShardSetRuntime()) {
      final ShardSchema schema = runtime.connect(ShardFixture.SCHEMA,
          ShardFixture.operand(SalesData.model(fixture)));
      assertTrue(schema.table("ORDERS").distinctValues(0).isEmpty());
    }
  }

  @Test void subpartitionedTablesCountEverySubpartition() throws SQLException {
    try (ShardFixture fixture = SubpartitionData.fixture(Backend.H2)) {
      final String model = fixture.model(SubpartitionData.TABLES);
      try (Connection loading = ShardFixture.connect(model)) {
        SubpartitionData.load(fixture, loading);
      }
      try (ShardSetRuntime runtime = new ShardSetRuntime()) {
        final ShardSchema schema = runtime.connect(ShardFixture.SCHEMA,
            ShardFixture.operand(model));
        for (String table : List.of("SHIPMENTS", "TICKETS")) {
          assertEquals(oracleCount(fixture, table),
              schema.table(table).getStatistic().getRowCount(), table);
        }
      }
    }
  }

  @Test void anUnreachableShardLeavesTheCountUnknownAndQueriesWork() throws SQLException {
    try (ShardFixture fixture = SalesData.fixture(Backend.POSTGRES);
         ShardSetRuntime runtime = new ShardSetRuntime()) {
      loadAndAnalyze(fixture);
      final String url = fixture.shards().settings("s2").jdbcUrl();
      final String database = url.substring(url.lastIndexOf('/') + 1);
      final ShardSchema schema = runtime.connect(ShardFixture.SCHEMA,
          ShardFixture.operand(SalesData.model(fixture)));
      allowConnections(database, false);
      try {
        assertNull(schema.table("CUSTOMERS").getStatistic().getRowCount());
        // A duplicated table's copy is read from a shard that answers.
        assertEquals(oracleCount(fixture, "COUNTRIES"),
            schema.table("COUNTRIES").getStatistic().getRowCount());
        // Planning goes on with Calcite's guess; a query that does not reach s2 runs.
        try (Connection connection = DriverManager.getConnection("jdbc:calcite:")) {
          connection.unwrap(CalciteConnection.class).getRootSchema()
              .add(ShardFixture.SCHEMA, schema);
          try (Statement s = connection.createStatement();
               ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM S.LEDGER"
                   + " WHERE ENTRY_ID < 1000")) {
            assertTrue(rs.next());
            assertEquals(oracleCount(fixture, "LEDGER WHERE ENTRY_ID < 1000").longValue(),
                rs.getLong(1));
          }
        }
      } finally {
        allowConnections(database, true);
      }
    }
  }

  @Test void anEmptyTableCountsAsUnknown() throws SQLException {
    try (ShardFixture fixture = SalesData.fixture(Backend.H2);
         ShardSetRuntime runtime = new ShardSetRuntime()) {
      final ShardSchema schema = runtime.connect(ShardFixture.SCHEMA,
          ShardFixture.operand(SalesData.model(fixture)));
      assertNull(schema.table("ORDERS").getStatistic().getRowCount());
    }
  }

  /**
   * Loads the sales data through ShardSet, then checks each table's row count in a runtime of
   * its own, whose statistics are read after the load.
   */
  private static void assertRowCountsAreTheOracles(ShardFixture fixture, String model,
      List<String> tables) throws SQLException {
    if (oracleCount(fixture, "CUSTOMERS") == 0.0) {
      try (Connection loading = ShardFixture.connect(model)) {
        SalesData.load(fixture, loading);
      }
    }
    try (ShardSetRuntime runtime = new ShardSetRuntime()) {
      final ShardSchema schema = runtime.connect(ShardFixture.SCHEMA,
          ShardFixture.operand(model));
      for (String table : tables) {
        assertEquals(oracleCount(fixture, table),
            schema.table(table).getStatistic().getRowCount(), table);
      }
    }
  }

  /** Loads the sales data through ShardSet and has PostgreSQL analyze it. */
  private static void loadAndAnalyze(ShardFixture fixture) throws SQLException {
    try (Connection loading = ShardFixture.connect(SalesData.model(fixture))) {
      SalesData.load(fixture, loading);
    }
    fixture.shards().executeOnAll("ANALYZE");
  }

  /** The rows of the oracle's table, as a row count. */
  private static Double oracleCount(ShardFixture fixture, String table) throws SQLException {
    try (Statement s = fixture.oracle().createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
      assertTrue(rs.next());
      return (double) rs.getLong(1);
    }
  }

  /** Refuses new connections to a PostgreSQL database and ends those it has, or allows them
   * again. */
  private static void allowConnections(String database, boolean allow) throws SQLException {
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement()) {
      s.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS " + allow);
      if (!allow) {
        s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
            + database + "'");
      }
    }
  }

}
