package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardPools;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests {@link ShardSetRuntime}: each model's pools are its own, shared by its connections,
 * closed with its last connection and opened again by the next.
 */
class ShardSetRuntimeTest {
  /** The shards' JDBC URL; the databases outlive their pools, as real ones do. */
  private static String url(String shard) {
    return "jdbc:h2:mem:shardset_runtime_" + shard + ";DB_CLOSE_DELAY=-1";
  }

  /** Creates two shards holding {@code rowsPerShard} rows of table T each, and returns the
   * operand of a model of them. */
  private static String operand(String prefix, int rowsPerShard) throws SQLException {
    final StringBuilder shards = new StringBuilder();
    for (int s = 0; s < 2; s++) {
      final String shard = prefix + s;
      try (Connection c = DriverManager.getConnection(url(shard), "sa", "");
           Statement statement = c.createStatement()) {
        statement.execute("DROP TABLE IF EXISTS T");
        statement.execute("CREATE TABLE T (K INT PRIMARY KEY, V VARCHAR(10))");
        for (int i = 0; i < rowsPerShard; i++) {
          statement.execute("INSERT INTO T VALUES (" + (s * 100 + i) + ", 'v')");
        }
      }
      shards.append(s == 0 ? "" : ", ").append(String.format(Locale.ROOT,
          "{\"name\": \"%s\", \"jdbcUrl\": \"%s\", \"jdbcUser\": \"sa\", \"jdbcPassword\": \"\"}",
          shard, url(shard)));
    }
    return "{\"shards\": [" + shards + "], \"tables\": [{\"name\": \"T\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]}";
  }

  /** A whole inline model of schema {@value ShardFixture#SCHEMA}. */
  private static String model(String operand) {
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + ShardFixture.SCHEMA
        + "\", \"schemas\": [{\"name\": \"" + ShardFixture.SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": " + operand
        + "}]}";
  }

  private static long count(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM T")) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }

  private static List<ShardEndpoint> endpoints(Connection connection) throws SQLException {
    return endpoints(ShardFixture.schema(connection));
  }

  private static List<ShardEndpoint> endpoints(ShardSchema schema) {
    final ShardTable table = schema.table("T");
    final List<ShardEndpoint> endpoints = new ArrayList<>();
    for (int i = 0; i < table.shardCount(); i++) {
      endpoints.add(table.site(i).endpoint());
    }
    return endpoints;
  }

  private static boolean allClosed(List<ShardEndpoint> endpoints) {
    return endpoints.stream().allMatch(ShardPools::isClosed);
  }

  private static boolean noneClosed(List<ShardEndpoint> endpoints) {
    return endpoints.stream().noneMatch(ShardPools::isClosed);
  }

  @Test void modelsKeepTheirOwnPoolsAndCloseThemWithTheirLastConnection() throws SQLException {
    final String a = model(operand("a", 2));
    final String b = model(operand("b", 3));
    // Pools are checked per model, never by counting the runtime's open models: other tests'
    // models close whenever they become garbage, so a count races with them.
    final List<ShardEndpoint> ofB;
    try (Connection b1 = Connector.SHARDSET.open(b)) {
      final Connection a1 = Connector.SHARDSET.open(a);
      final Connection a2 = Connector.SHARDSET.open(a);
      assertEquals(4, count(a1));
      assertEquals(4, count(a2));
      assertEquals(6, count(b1));

      // One model's connections share its pools; the other model has pools of its own.
      final List<ShardEndpoint> ofA = endpoints(a1);
      ofB = endpoints(b1);
      for (int i = 0; i < ofA.size(); i++) {
        assertSame(ofA.get(i), endpoints(a2).get(i));
        assertNotSame(ofA.get(i), ofB.get(i));
      }
      assertTrue(noneClosed(ofA));
      assertTrue(noneClosed(ofB));

      // The model's pools stay open while one of its connections is open ...
      a1.close();
      assertTrue(noneClosed(ofA));
      assertEquals(4, count(a2));

      // ... and close with the last, leaving the other model's serving.
      a2.close();
      assertTrue(allClosed(ofA));
      assertTrue(noneClosed(ofB));
      assertEquals(6, count(b1));
      assertEquals(0, ofB.stream().mapToInt(ShardPools::activeConnections).sum());

      // A new connection opens the model's pools again.
      final List<ShardEndpoint> reopened;
      try (Connection a3 = Connector.SHARDSET.open(a)) {
        assertEquals(4, count(a3));
        reopened = endpoints(a3);
        assertTrue(noneClosed(reopened));
        assertNotSame(ofA.get(0), reopened.get(0));
      }
      assertTrue(allClosed(reopened));
      assertTrue(noneClosed(ofB));
    }
    assertTrue(allClosed(ofB));
  }

  @Test void aReleasedSchemaLetsGoOfItsModelOnce() throws SQLException {
    final String operand = operand("c", 1);
    try (ShardSetRuntime runtime = new ShardSetRuntime()) {
      final ShardSchema first = runtime.connect("S", operands(operand));
      final ShardSchema second = runtime.connect("S", operands(operand));
      final List<ShardEndpoint> endpoints = endpoints(first);
      first.release();
      first.release();
      assertTrue(noneClosed(endpoints));
      second.release();
      assertTrue(allClosed(endpoints));
      assertEquals(0, runtime.execution().openModels());
    }
  }

  /** Tables read again for their age stay those connections have when nothing changed on
   * the shards (so the process's plans made on them stay shared), and not after a column was
   * added. */
  @Test void tablesReadAgainAreAlikeUntilTheShardsChange() throws SQLException {
    final String operand = operand("alike", 1);
    try (ShardSetRuntime first = new ShardSetRuntime();
         ShardSetRuntime second = new ShardSetRuntime();
         ShardSetRuntime third = new ShardSetRuntime()) {
      final Map<String, Table> before = tables(first.connect("S", operands(operand)));
      final Map<String, Table> again = tables(second.connect("S", operands(operand)));
      assertNotSame(before.get("T"), again.get("T"));
      assertTrue(ModelTables.alike(before, again));
      for (int s = 0; s < 2; s++) {
        try (Connection c = DriverManager.getConnection(url("alike" + s), "sa", "");
             Statement statement = c.createStatement()) {
          statement.execute("ALTER TABLE T ADD COLUMN W INT");
        }
      }
      assertFalse(ModelTables.alike(before, tables(third.connect("S", operands(operand)))));
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Table> tables(ShardSchema schema) {
    return (Map<String, Table>) schema.tablesIdentity();
  }

  @Test void closingARuntimeEndsTheThreadsItsScansRanOn() throws Exception {
    final ShardSetRuntime runtime = new ShardSetRuntime();
    final ShardSchema schema = runtime.connect("S", operands(operand("t", 3)));
    try (Connection connection = DriverManager.getConnection("jdbc:calcite:")) {
      final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
      root.add("S", schema);
      try (Statement statement = connection.createStatement();
           ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM S.T")) {
        assertTrue(rs.next());
        assertEquals(6, rs.getLong(1));
      }
    }
    assertNotSame(ShardSetRuntime.get().execution().scanServices(),
        runtime.execution().scanServices());
    runtime.close();
    assertTrue(runtime.execution().awaitTermination(1, TimeUnit.MINUTES));
    assertFalse(ShardSetRuntime.get().isClosed());
  }

  @Test void runtimesKeepStateOfTheirOwnAndCloseIt() throws SQLException {
    final String operand = operand("d", 1);
    final ShardSchema kept;
    final List<ShardEndpoint> closedWithRuntime;
    try (ShardSetRuntime other = new ShardSetRuntime()) {
      final ShardSetRuntime runtime = new ShardSetRuntime();
      final ShardSchema schema = runtime.connect("S", operands(operand));
      kept = other.connect("S", operands(operand));
      closedWithRuntime = endpoints(schema);
      assertNotSame(closedWithRuntime.get(0), endpoints(kept).get(0));
      runtime.close();
      assertTrue(runtime.isClosed());
      assertTrue(allClosed(closedWithRuntime));
      assertTrue(noneClosed(endpoints(kept)));
      assertThrows(IllegalStateException.class,
          () -> runtime.connect("S", operands(operand)));
    }
    assertTrue(allClosed(endpoints(kept)));
    assertFalse(ShardSetRuntime.get().isClosed());
  }

  /** The operand as Calcite's model handler hands it to the schema factory. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> operands(String json) {
    try {
      return new ObjectMapper().readValue(json, Map.class);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
