package io.shardset.jdbc;

import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;

import org.apache.calcite.avatica.remote.Driver.Serialization;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver jar as a BI tool loads it: a class loader of that one jar (no Maven class path
 * behind it) gives both drivers and the shard drivers, opens a model of H2 shards embedded and
 * a running server remotely, answers queries and the metadata calls DBeaver makes on connect,
 * and keeps its Jackson, Guava and HikariCP out of the host's packages.
 */
class IsolatedDriverTest {
  private static final String DDL = "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL)";

  @TempDir static Path folder;
  private static URLClassLoader jar;

  @BeforeAll static void loadTheJarAlone() throws IOException {
    final Path file = Path.of(System.getProperty("shardset.jdbc.jar"));
    assertTrue(Files.isRegularFile(file), file.toString());
    jar = new URLClassLoader(new URL[] {file.toUri().toURL()},
        ClassLoader.getPlatformClassLoader());
  }

  @AfterAll static void close() throws IOException {
    jar.close();
  }

  private static Driver driver(String name) throws ReflectiveOperationException {
    final Class<?> type = jar.loadClass(name);
    assertSame(jar, type.getClassLoader(), name + " comes from the jar");
    return (Driver) type.getDeclaredConstructor().newInstance();
  }

  @Test void theJarRegistersEveryDriverAndHidesItsDependencies() throws Exception {
    final List<String> drivers = new ArrayList<>();
    for (URL services : Collections.list(jar.getResources("META-INF/services/java.sql.Driver"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(services.openStream(),
          StandardCharsets.UTF_8))) {
        in.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .forEach(drivers::add);
      }
    }
    assertTrue(drivers.containsAll(List.of("io.shardset.calcite.jdbc.ShardSetDriver",
        "io.shardset.calcite.remote.ShardSetRemoteDriver", "org.h2.Driver",
        "org.postgresql.Driver", "org.mariadb.jdbc.Driver")), drivers.toString());
    for (String hidden : List.of("com.fasterxml.jackson.databind.ObjectMapper",
        "com.google.common.collect.ImmutableList", "com.zaxxer.hikari.HikariDataSource")) {
      assertThrows(ClassNotFoundException.class, () -> jar.loadClass(hidden), hidden);
      jar.loadClass("io.shardset.shaded." + hidden);
    }
  }

  @Test void anEmbeddedModelAnswersQueriesAndMetadata() throws Exception {
    final Driver h2 = driver("org.h2.Driver");
    final String model = model(h2, "embedded");
    final Properties info = new Properties();
    info.setProperty("model", "inline:" + model);
    try (Connection c = driver("io.shardset.calcite.jdbc.ShardSetDriver")
        .connect("jdbc:shardset:", info)) {
      assertEquals(List.of("4"), rows(c, "SELECT COUNT(*) FROM CUSTOMERS"));
      assertEquals(List.of("3, Cy"), rows(c, "SELECT ID, NAME FROM CUSTOMERS WHERE ID = 3"));
      dbeaverMetadata(c.getMetaData());
      tableauProbes(c);
    }
  }

  @Test void aServerAnswersThroughTheRemoteDriver() throws Exception {
    // The server runs on this test's class path, with its own H2: shards of its own.
    final String model = model(DriverManager.getDriver("jdbc:h2:mem:"), "served");
    final Path file = folder.resolve("served.json");
    Files.writeString(file, model);
    try (ShardSetServer server = ShardSetServer.start(ServerSettings.loopback(file, 0,
        Serialization.PROTOBUF))) {
      final String url = server.jdbcUrl().replace("jdbc:avatica:remote:",
          "jdbc:shardset:remote:");
      try (Connection c = driver("io.shardset.calcite.remote.ShardSetRemoteDriver")
          .connect(url, new Properties())) {
        assertEquals("ShardSet", c.getMetaData().getDatabaseProductName());
        assertEquals(List.of("1, Ann", "2, Bo"),
            rows(c, "SELECT ID, NAME FROM CUSTOMERS WHERE ID < 3 ORDER BY ID"));
        dbeaverMetadata(c.getMetaData());
        tableauProbes(c);
      }
    }
  }

  /** What DBeaver asks on connect and when it opens a table. */
  private static void dbeaverMetadata(DatabaseMetaData md) throws SQLException {
    assertEquals("ShardSet", md.getDatabaseProductName());
    assertTrue(md.getDriverName().contains("ShardSet"), md.getDriverName());
    assertTrue(column(md.getSchemas(), 1).contains("S"));
    assertTrue(column(md.getTables(null, "S", "%", null), 3).contains("CUSTOMERS"));
    assertEquals(List.of("ID", "NAME"), column(md.getColumns(null, "S", "CUSTOMERS", "%"), 4));
    assertEquals(List.of("ID"), column(md.getPrimaryKeys(null, "S", "CUSTOMERS"), 4));
    assertTrue(!column(md.getTypeInfo(), 1).isEmpty());
    column(md.getCatalogs(), 1);
    // DataGrip's and DBeaver's table pages: indexes and foreign keys (none here).
    assertEquals(List.of("ID"), column(md.getIndexInfo(null, "S", "CUSTOMERS", true, false),
        9));
    assertEquals(List.of(), column(md.getImportedKeys(null, "S", "CUSTOMERS"), 3));
  }

  /**
   * What Tableau's "Other Databases (JDBC)" connector asks: a table's columns from an empty
   * result, the LIMIT and TOP probes (TOP refused cleanly, the connection still usable), and
   * an extract's query as Tableau writes it.
   */
  private static void tableauProbes(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(
        "SELECT * FROM \"S\".\"CUSTOMERS\" WHERE 1=0"); ResultSet rs = p.executeQuery()) {
      assertEquals(2, rs.getMetaData().getColumnCount());
      assertTrue(!rs.next());
    }
    assertEquals(List.of("1"), rows(c, "SELECT 1 AS \"COL\" FROM \"S\".\"CUSTOMERS\" LIMIT 1"));
    assertThrows(SQLException.class, () -> rows(c,
        "SELECT TOP 1 1 AS \"COL\" FROM \"S\".\"CUSTOMERS\""));
    assertEquals(List.of("Ann, 1", "Bo, 1", "Cy, 1", "Di, 1"), rows(c,
        "SELECT \"CUSTOMERS\".\"NAME\" AS \"NAME\", COUNT(*) AS \"cnt:ID:ok\""
        + " FROM \"S\".\"CUSTOMERS\" \"CUSTOMERS\" GROUP BY 1 ORDER BY 1 NULLS FIRST"));
  }

  /** Two H2 shards made with the given H2 driver, four rows, and a model over them. */
  private static String model(Driver h2, String name) throws SQLException {
    final StringJoiner shards = new StringJoiner(", ");
    for (int i = 0; i < 2; i++) {
      final String url = "jdbc:h2:" + folder.resolve(name + i).toAbsolutePath();
      final Properties user = new Properties();
      user.setProperty("user", "sa");
      user.setProperty("password", "");
      try (Connection c = h2.connect(url, user); Statement s = c.createStatement()) {
        s.execute(DDL);
        s.execute(i == 0 ? "INSERT INTO CUSTOMERS VALUES (1, 'Ann'), (3, 'Cy')"
            : "INSERT INTO CUSTOMERS VALUES (2, 'Bo'), (4, 'Di')");
      }
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url + "\", \"jdbcUser\": \"sa\","
          + " \"jdbcPassword\": \"\"}");
    }
    return "{\"version\": \"1.0\", \"defaultSchema\": \"S\", \"schemas\": [{\"name\": \"S\","
        + " \"type\": \"custom\", \"factory\": \"io.shardset.calcite.ShardSchemaFactory\","
        + " \"operand\": {\"shards\": [" + shards + "], \"tables\": [{\"name\": \"CUSTOMERS\","
        + " \"method\": \"list\", \"shardKey\": [\"ID\"], \"lists\": ["
        + "{\"shard\": \"s0\", \"values\": [1, 3]}, {\"shard\": \"s1\", \"values\": [2, 4]}]}]}}]}";
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final StringJoiner row = new StringJoiner(", ");
        for (int i = 1; i <= columns; i++) {
          row.add(String.valueOf(rs.getObject(i)));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  private static List<String> column(ResultSet rs, int index) throws SQLException {
    final List<String> values = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        values.add(rs.getString(index));
      }
    }
    return values;
  }
}
