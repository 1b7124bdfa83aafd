package io.shardset.reshard;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.model.ModelException;
import io.shardset.model.ShardSetModel;
import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Preparing a new shard s2 for a model of shards s0 and s1: its tables are created as s0 has
 * them, its duplicated table gets s0's rows, and a second run changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TablePreparerTestBase {
  /** Rows of the duplicated table: more than one insert batch. */
  private static final int REGIONS = DuplicatedCopy.BATCH_SIZE * 2 + 500;
  private static final String TABLES = """
      [{"name": "ORDERS", "method": "consistent-hash", "shardKey": ["ID"]},
       {"name": "ORDER_LINES", "method": "consistent-hash", "shardKey": ["ORDER_ID"]},
       {"name": "ITEMS", "physicalName": "Order Items", "method": "consistent-hash",
        "shardKey": ["Item Id"]},
       {"name": "SHIPMENTS", "method": "consistent-hash", "shardKey": ["ID"],
        "subpartitions": {"column": "YR", "physicalName": "SHIPMENTS_{name}",
          "ranges": [{"name": "P1", "to": 2020}, {"name": "P2", "from": 2020}]}},
       {"name": "REGIONS", "method": "duplicated"}]""";

  private Backend.Databases databases;
  private List<ShardConnectionSettings> shards;

  /** The backend of the test's three databases. */
  abstract Backend backend();

  /** The DDL of ORDERS, whose column types depend on the database. */
  abstract String ordersDdl();

  @BeforeAll void setUp() throws SQLException {
    databases = backend().create("reshard_prep", 3);
    shards = databases.shards();
    for (ShardConnectionSettings shard : shards.subList(0, 2)) {
      ReshardModels.execute(shard, ordersDdl(),
          "CREATE TABLE ORDER_LINES (ORDER_ID BIGINT, LINE INTEGER, QTY INTEGER NOT NULL,"
              + " PRIMARY KEY (ORDER_ID, LINE))",
          "CREATE TABLE \"Order Items\" (\"Item Id\" BIGINT PRIMARY KEY,"
              + " \"select\" VARCHAR(20) NOT NULL)",
          "CREATE TABLE SHIPMENTS_P1 (ID BIGINT NOT NULL, YR INTEGER NOT NULL)",
          "CREATE TABLE SHIPMENTS_P2 (ID BIGINT NOT NULL, YR INTEGER NOT NULL)",
          "CREATE TABLE REGIONS (CODE VARCHAR(8) PRIMARY KEY, NAME VARCHAR(40),"
              + " POPULATION BIGINT)");
      try (Connection c = ReshardModels.connect(shard);
           PreparedStatement p = c.prepareStatement("INSERT INTO REGIONS VALUES (?, ?, ?)")) {
        for (int i = 0; i < REGIONS; i++) {
          p.setString(1, "R" + i);
          p.setString(2, i % 7 == 0 ? null : "Region " + i);
          p.setLong(3, i * 1000L);
          p.addBatch();
        }
        p.executeBatch();
      }
    }
  }

  /** Drops every table of the new shard, and every move table. */
  @BeforeEach void emptyNewShard() throws SQLException {
    for (ShardConnectionSettings shard : shards) {
      ReshardModels.execute(shard, tableNames(shard).stream()
          .filter(t -> shard == shards.get(2)
              || t.toUpperCase(Locale.ROOT).endsWith("_SHARDSET_MOVE"))
          .map(t -> "DROP TABLE \"" + t + "\"").toArray(String[]::new));
    }
  }

  @AfterAll void tearDown() throws SQLException {
    if (databases != null) {
      databases.close();
    }
  }

  private ShardSetModel model(int shardCount) {
    return model(shardCount, TABLES);
  }

  private ShardSetModel model(int shardCount, String tables) {
    return ReshardModels.parse("{\"shards\": " + ReshardModels.shardsJson(shards, shardCount)
        + ",\n \"tables\": " + tables + "}");
  }

  @Test void createsTablesAsTheSourceHasThem() throws SQLException {
    final TablePreparer.Outcome outcome = TablePreparer.prepare(model(2), model(3), "s2");
    final List<String> created =
        outcome.created().stream().map(t -> t.toUpperCase(Locale.ROOT)).toList();
    assertEquals(List.of("ORDERS", "ORDER_LINES", "ORDER ITEMS", "SHIPMENTS_P1",
        "SHIPMENTS_P2", "REGIONS"), created);
    for (String table : outcome.created()) {
      assertEquals(describe(shards.get(0), table), describe(shards.get(2), table), table);
    }
    // An unconstrained or wide decimal column keeps a fraction.
    ReshardModels.execute(shards.get(2), "INSERT INTO ORDERS (ID, NAME, BIG) VALUES (1, 'a', 1.5)");
    assertEquals(List.of("1.5"), rows(shards.get(2), "SELECT BIG FROM ORDERS"));
    assertEquals(Map.of("REGIONS", (long) REGIONS), outcome.copiedRows());
    assertEquals(rows(shards.get(0), "SELECT * FROM REGIONS ORDER BY CODE"),
        rows(shards.get(2), "SELECT * FROM REGIONS ORDER BY CODE"));
  }

  @Test void secondRunChangesNothing() throws SQLException {
    TablePreparer.prepare(model(2), model(3), "s2");
    final String before = describe(shards.get(2), "REGIONS");
    assertEquals(new TablePreparer.Outcome(List.of(), Map.of()),
        TablePreparer.prepare(model(2), model(3), "s2"));
    assertEquals(before, describe(shards.get(2), "REGIONS"));
  }

  @Test void replacesDuplicatedRowsThatDiffer() throws SQLException {
    TablePreparer.prepare(model(2), model(3), "s2");
    ReshardModels.execute(shards.get(2), "DELETE FROM REGIONS WHERE CODE = 'R5'",
        "UPDATE REGIONS SET NAME = 'changed' WHERE CODE = 'R6'");
    assertEquals(Map.of("REGIONS", (long) REGIONS),
        TablePreparer.prepare(model(2), model(3), "s2").copiedRows());
    assertEquals(rows(shards.get(0), "SELECT * FROM REGIONS ORDER BY CODE"),
        rows(shards.get(2), "SELECT * FROM REGIONS ORDER BY CODE"));
  }

  @Test void keepsATableTheNewShardAlreadyHas() throws SQLException {
    ReshardModels.execute(shards.get(2), "CREATE TABLE ORDER_LINES (ORDER_ID BIGINT,"
        + " LINE INTEGER, QTY INTEGER NOT NULL, NOTE VARCHAR(5))");
    TablePreparer.prepare(model(2), model(3), "s2");
    assertEquals(List.of("ORDER_ID", "LINE", "QTY", "NOTE"),
        columnNames(shards.get(2), "ORDER_LINES"));
  }

  @Test void failsWithoutTheSourceTable() {
    final String missing = TABLES.substring(0, TABLES.length() - 1)
        + ", {\"name\": \"MISSING\", \"method\": \"duplicated\"}]";
    final ModelException e = assertThrows(ModelException.class,
        () -> TablePreparer.prepare(model(2, missing), model(3, missing), "s2"));
    assertEquals("Invalid ShardSet model: schema 'S', table 'MISSING', field 'physicalName':"
        + " table 'MISSING' not found on shard 's0'", e.getMessage());
  }

  private static List<String> tableNames(ShardConnectionSettings shard) throws SQLException {
    final List<String> names = new ArrayList<>();
    try (Connection c = ReshardModels.connect(shard);
         ResultSet rs = c.getMetaData().getTables(null, c.getSchema(), null,
             new String[] {"TABLE", "BASE TABLE"})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_NAME"));
      }
    }
    return names;
  }

  private static String exactName(ShardConnectionSettings shard, String table)
      throws SQLException {
    try (Connection c = ReshardModels.connect(shard)) {
      return exactName(c.getMetaData(), table);
    }
  }

  /** Each column's name, type, size, digits and nullability, and the primary key. */
  private static String describe(ShardConnectionSettings shard, String table)
      throws SQLException {
    final StringBuilder text = new StringBuilder();
    try (Connection c = ReshardModels.connect(shard)) {
      final DatabaseMetaData metaData = c.getMetaData();
      final String name = exactName(metaData, table);
      try (ResultSet rs = metaData.getColumns(null, null, name, null)) {
        while (rs.next()) {
          text.append(rs.getString("COLUMN_NAME")).append(' ').append(rs.getString("TYPE_NAME"))
              .append('(').append(rs.getInt("COLUMN_SIZE")).append(", ")
              .append(rs.getInt("DECIMAL_DIGITS")).append(") nullable ")
              .append(rs.getInt("NULLABLE")).append('\n');
        }
      }
      try (ResultSet rs = metaData.getPrimaryKeys(null, null, name)) {
        while (rs.next()) {
          text.append("key ").append(rs.getShort("KEY_SEQ")).append(' ')
              .append(rs.getString("COLUMN_NAME")).append('\n');
        }
      }
    }
    return text.toString();
  }

  private static List<String> columnNames(ShardConnectionSettings shard, String table)
      throws SQLException {
    final List<String> names = new ArrayList<>();
    try (Connection c = ReshardModels.connect(shard);
         ResultSet rs = c.getMetaData().getColumns(null, null,
             exactName(c.getMetaData(), table), null)) {
      while (rs.next()) {
        names.add(rs.getString("COLUMN_NAME").toUpperCase(Locale.ROOT));
      }
    }
    return names;
  }

  /** The table's name as the database stores it: as given, or in lower case. */
  private static String exactName(DatabaseMetaData metaData, String table) throws SQLException {
    try (ResultSet rs = metaData.getTables(null, null, table, null)) {
      if (rs.next()) {
        return table;
      }
    }
    return table.toLowerCase(Locale.ROOT);
  }

  private static List<String> rows(ShardConnectionSettings shard, String sql)
      throws SQLException {
    try (Connection c = ReshardModels.connect(shard); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery(sql)) {
      return ShardFixture.rows(rs);
    }
  }
}
