package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardPools;
import io.shardset.testing.OutOfMemoryFunction;
import io.shardset.testing.PostgresItems;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static io.shardset.calcite.ExecutionResourcesTest.messages;
import static io.shardset.testing.PostgresItems.awaitValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every shard scan belongs to its statement and its connection, on four PostgreSQL shards:
 * closing a connection whose ResultSets are still open, or an error above the shards (out of
 * memory in a sort or a join), leaves no shard session in a transaction and no pooled
 * connection checked out.
 */
class PostgresScanOwnershipTest {
  private static final int ROWS_PER_SHARD = 20_000;
  private static PostgresItems items;
  private static String model;

  @BeforeAll static void createShards() throws SQLException {
    items = PostgresItems.create("owned", ROWS_PER_SHARD);
    model = items.model("", 0, OutOfMemoryFunction.schemaJson() + ", ");
  }

  @AfterAll static void dropShards() throws SQLException {
    items.drop();
  }

  @ParameterizedTest @ValueSource(strings = {"jdbc:shardset:", "jdbc:calcite:"})
  void closingTheConnectionClosesItsScans(String url) throws Exception {
    final List<ShardEndpoint> endpoints;
    final Connection c = connect(url);
    endpoints = endpoints(c);
    final Statement s = c.createStatement();
    final ResultSet all = s.executeQuery("SELECT * FROM ITEMS");
    final PreparedStatement p = c.prepareStatement("SELECT * FROM ITEMS WHERE ID > ?");
    p.setLong(1, 3_000_000);
    final ResultSet one = p.executeQuery();
    for (int i = 0; i < 10; i++) {
      assertTrue(all.next());
      assertTrue(one.next());
    }
    assertTrue(checkedOut(endpoints) > 0);
    c.close();
    awaitValue(0, () -> checkedOut(endpoints));
    awaitValue(0, items::busySessions);
  }

  @ParameterizedTest @ValueSource(strings = {
      "SELECT ID FROM ITEMS ORDER BY F.EXPLODE(ID)",
      "SELECT a.ID, b.ID FROM ITEMS a JOIN ITEMS b ON a.V = b.V"
          + " WHERE F.EXPLODE(a.ID) > 0 AND F.EXPLODE(b.ID) > 0"})
  void outOfMemoryAboveTheShardsReleasesEveryShard(String sql) throws Exception {
    try (Connection c = connect("jdbc:shardset:"); Statement s = c.createStatement()) {
      final List<ShardEndpoint> endpoints = endpoints(c);
      final Throwable thrown = assertThrows(Throwable.class, () -> {
        try (ResultSet rs = s.executeQuery(sql)) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      });
      assertTrue(messages(thrown).contains(OutOfMemoryFunction.MESSAGE), messages(thrown));
      assertFalse(messages(thrown).contains("shard '"), messages(thrown));
      // Released while the statement and connection are still open.
      awaitValue(0, () -> checkedOut(endpoints));
      awaitValue(0, items::busySessions);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ITEMS")) {
        assertTrue(rs.next());
        assertEquals(4L * ROWS_PER_SHARD, rs.getLong(1));
      }
    }
  }

  private static Connection connect(String url) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("model", "inline:" + model);
    return DriverManager.getConnection(url, info);
  }

  private static List<ShardEndpoint> endpoints(Connection c) throws SQLException {
    final ShardTable items = ShardFixture.schema(c).table("ITEMS");
    final List<ShardEndpoint> endpoints = new ArrayList<>();
    for (int i = 0; i < items.shardCount(); i++) {
      endpoints.add(items.site(i).endpoint());
    }
    return endpoints;
  }

  private static int checkedOut(List<ShardEndpoint> endpoints) {
    return endpoints.stream().mapToInt(ShardPools::activeConnections).sum();
  }
}
