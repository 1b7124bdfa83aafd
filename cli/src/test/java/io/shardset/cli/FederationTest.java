package io.shardset.cli;

import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.calcite.remote.ShardSetSqlDialectFactory;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.adapter.jdbc.JdbcSchema;
import org.apache.calcite.avatica.remote.Driver;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A federating Calcite whose model has a JDBC schema over a ShardSet server, through
 * Avatica's remote driver or ShardSet's, and a JDBC schema over a local H2 database, as
 * docs/server.md shows it: joins across the two, and window functions over a server table.
 */
class FederationTest {
  private static final String WINDOW = "SELECT K, G, ROW_NUMBER() OVER (PARTITION BY G"
      + " ORDER BY V) AS RN, SUM(V) OVER (PARTITION BY G) AS S FROM R.T ORDER BY K";
  private static final List<String> WINDOW_ROWS = List.of(
      "1|a|1|30", "2|a|2|30", "3|b|1|12", "4|b|2|12", "5|c|1|1");

  @TempDir Path folder;
  private H2Shards shards;
  private ShardSetServer server;
  private Connection local;
  private String localUrl;
  private final String user = "federation-" + UUID.randomUUID();

  @BeforeEach void start() throws Exception {
    shards = H2Shards.create(folder, 2, "\"tables\": [{\"name\": \"T\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]",
        "CREATE TABLE T (K BIGINT PRIMARY KEY, G VARCHAR(4) NOT NULL, V INTEGER NOT NULL)");
    server = ShardSetServer.start(
        ServerSettings.loopback(shards.modelFile(), 0, Driver.Serialization.PROTOBUF));
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO T VALUES (1, 'a', 10), (2, 'a', 20), (3, 'b', 5),"
          + " (4, 'b', 7), (5, 'c', 1)");
    }
    localUrl = "jdbc:h2:mem:federation_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    local = DriverManager.getConnection(localUrl, "sa", "");
    try (Statement s = local.createStatement()) {
      s.execute("CREATE TABLE G (G VARCHAR(4) NOT NULL, NAME VARCHAR(10) NOT NULL)");
      s.execute("INSERT INTO G VALUES ('a', 'Alpha'), ('b', 'Beta'), ('c', 'Gamma')");
    }
  }

  @AfterEach void stop() throws SQLException {
    try {
      if (server != null) {
        server.close();
      }
      shards.close();
    } finally {
      try (Statement s = local.createStatement()) {
        s.execute("SHUTDOWN");
      }
      local.close();
    }
  }

  /** The remote schema's URL and driver: Avatica's remote driver, or ShardSet's. */
  private String remoteSchema(String driver, String dialectFactory) {
    final String url = driver.equals(ShardSetRemoteDriver.class.getName())
        ? server.jdbcUrl().replace("jdbc:avatica:remote:",
            ShardSetRemoteDriver.CONNECT_STRING_PREFIX)
        : server.jdbcUrl();
    return "{\"name\": \"R\", \"type\": \"jdbc\", \"jdbcDriver\": \"" + driver + "\","
        + " \"jdbcUrl\": \"" + url + "\", \"jdbcSchema\": \"" + H2Shards.SCHEMA + "\""
        // Calcite caches pools by URL, driver and user: this test's own, which it closes.
        + ", \"jdbcUser\": \"" + user + "\""
        + (dialectFactory == null ? ""
            : ", \"sqlDialectFactory\": \"" + dialectFactory + "\"") + "}";
  }

  private Connection federating(String driver, String dialectFactory) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("model", "inline:{\"version\": \"1.0\", \"schemas\": ["
        + remoteSchema(driver, dialectFactory) + ", {\"name\": \"L\", \"type\": \"jdbc\","
        + " \"jdbcDriver\": \"org.h2.Driver\", \"jdbcUrl\": \"" + localUrl + "\","
        + " \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\", \"jdbcSchema\": \"PUBLIC\"}]}");
    return DriverManager.getConnection("jdbc:calcite:", info);
  }

  /**
   * Runs the checks on a federating connection, then closes it and the pools Calcite's JDBC
   * schemas keep (in a process-wide cache, open past the connection's close): their open
   * remote connections would keep the server's shard connections until its idle timeout.
   */
  private void withFederating(String driver, String dialectFactory, Checks checks)
      throws Exception {
    try (Connection calcite = federating(driver, dialectFactory)) {
      try {
        checks.run(calcite);
      } finally {
        final SchemaPlus root = calcite.unwrap(CalciteConnection.class).getRootSchema();
        for (String schema : List.of("R", "L")) {
          final DataSource pool = Objects.requireNonNull(root.subSchemas().get(schema))
              .unwrap(JdbcSchema.class).getDataSource();
          ((AutoCloseable) pool).close();
        }
      }
    }
  }

  /** Checks on a federating connection. */
  @FunctionalInterface
  private interface Checks {
    void run(Connection calcite) throws Exception;
  }

  private static List<String> query(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return H2Shards.rows(rs);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"org.apache.calcite.avatica.remote.Driver",
      "io.shardset.calcite.remote.ShardSetRemoteDriver"})
  void joinsAndWindowsWithShardSetsDialect(String driver) throws Exception {
    withFederating(driver, ShardSetSqlDialectFactory.class.getName(), calcite -> {
      assertEquals(List.of("1|Alpha|10", "2|Alpha|20", "3|Beta|5", "4|Beta|7", "5|Gamma|1"),
          query(calcite, "SELECT t.K, g.NAME, t.V FROM R.T t JOIN L.G g ON g.G = t.G"
              + " ORDER BY t.K"));
      assertEquals(List.of("Alpha|30", "Beta|12"),
          query(calcite, "SELECT g.NAME, SUM(t.V) FROM R.T t JOIN L.G g ON g.G = t.G"
              + " WHERE t.V > 2 GROUP BY g.NAME ORDER BY g.NAME"));
      assertEquals(WINDOW_ROWS, query(calcite, WINDOW));
      assertEquals(List.of("Gamma|5|1", "Beta|4|1", "Beta|3|2", "Alpha|2|1", "Alpha|1|2"),
          query(calcite, "SELECT g.NAME, t.K, RANK() OVER (PARTITION BY g.NAME"
              + " ORDER BY t.V DESC) FROM R.T t JOIN L.G g ON g.G = t.G"
              + " ORDER BY g.NAME DESC, t.K DESC"));
      assertEquals(List.of("1|a|10", "3|b|5", "5|c|1"),
          query(calcite, "SELECT K, G, V FROM (SELECT K, G, V, ROW_NUMBER() OVER"
              + " (PARTITION BY G ORDER BY V) AS RN FROM R.T) WHERE RN = 1 ORDER BY K"));
      assertEquals(List.of("2|10|2", "1|null|1"),
          query(calcite, "SELECT K, LAG(V, 1) OVER (PARTITION BY G ORDER BY K),"
              + " NTILE(2) OVER (PARTITION BY G ORDER BY K) FROM R.T"
              + " ORDER BY V DESC LIMIT 2"));
      assertEquals(List.of("1|10", "2|30", "3|5", "4|12", "5|1"),
          query(calcite, "SELECT K, SUM(V) OVER (PARTITION BY G ORDER BY K"
              + " ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM R.T ORDER BY K"));
      // The window above the server's rows, which the server sends filtered: Calcite 1.42
      // cannot send a window function through its JDBC adapter (CALCITE-7616).
      final String plan = String.join("\n", query(calcite, "EXPLAIN PLAN FOR SELECT K,"
          + " ROW_NUMBER() OVER (PARTITION BY G ORDER BY V) FROM R.T WHERE V > 2"));
      assertTrue(plan.matches("(?s).*EnumerableWindow.*JdbcToEnumerableConverter\n"
          + " *JdbcFilter\\(condition=\\[>\\(\\$2, 2\\)\\]\\)\n *JdbcTableScan\\(table=\\[\\[R,"
          + " T\\]\\]\\).*"), plan);
    });
  }

  /** Pins the Calcite bug the dialect factory avoids: once Calcite plans window functions
   * over JDBC tables, this fails, and the dialect may send them. */
  @Test void calcitesOwnDialectCannotPlanWindows() throws Exception {
    withFederating("org.apache.calcite.avatica.remote.Driver", null, calcite -> {
      assertEquals(List.of("1|Alpha", "2|Alpha", "3|Beta", "4|Beta", "5|Gamma"),
          query(calcite, "SELECT t.K, g.NAME FROM R.T t JOIN L.G g ON g.G = t.G"
              + " ORDER BY t.K"));
      final AssertionError e = assertThrows(AssertionError.class, () -> query(calcite, WINDOW));
      assertTrue(e.getMessage().contains("LogicalWindow.JDBC.R")
          && e.getMessage().contains("does not implement the required interface 'interface"
              + " org.apache.calcite.adapter.jdbc.JdbcRel'"), e.getMessage());
    });
  }
}
