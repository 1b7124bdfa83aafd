package io.shardset.topology;

import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.ShardingMethod;
import io.shardset.model.TableSpec;
import io.shardset.testing.MariaDbServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MariaDB lists the tables of every database on the server, one catalog each: two shard
 * databases on one server both hold the table, and each shard reads its own.
 */
class MariaDbLayoutTest {
  private static List<String> databases = List.of();

  @BeforeAll static void createDatabases() throws SQLException {
    MariaDbServer.require();
    databases = MariaDbServer.createDatabases("layout", 2);
    for (int i = 0; i < databases.size(); i++) {
      try (Connection c = connect(i); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE ORDERS (ID INT, ONLY_IN_S" + i + " INT)");
      }
    }
  }

  @AfterAll static void dropDatabases() throws SQLException {
    MariaDbServer.drop(databases);
  }

  private static Connection connect(int shard) throws SQLException {
    return DriverManager.getConnection(MariaDbServer.url(databases.get(shard)),
        MariaDbServer.USER, "");
  }

  @Test void eachShardReadsTheTableOfItsOwnDatabase() throws SQLException {
    for (int i = 0; i < databases.size(); i++) {
      ShardSpec shard = new ShardSpec("s" + i, MariaDbServer.url(databases.get(i)),
          MariaDbServer.USER, "", null, null, null, "default");
      ShardSetModel model =
          new ShardSetModel("SALES", List.of(shard), null, List.of(), null, List.of());
      TableSpec table = new TableSpec("ORDERS", "ORDERS", ShardingMethod.DUPLICATED, List.of(),
          List.of(shard.name()), "default", List.of(), List.of());
      try (Connection connection = connect(i)) {
        assertEquals(List.of("ID", "ONLY_IN_S" + i),
            TableLayoutReader.read(model, table, name -> connection).columnNames());
      }
    }
  }
}
