package io.shardset.reshard;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.model.MoveTables;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.TableSpec;
import io.shardset.topology.ShardedTable;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Five shards s0..s4 (s4 outside the model at first) holding a family of consistent-hash and
 * composite tables: CUSTOMERS and ORDERS on CUSTOMER_ID (some orders without a customer),
 * VISITS on a two-column key with NULL parts and split into two subpartition tables, and
 * ACCOUNTS, composite by CLASS; the duplicated table REGIONS; the model in a file; and checks
 * of where rows sit.
 */
final class MoveFixture {
  static final List<String> FAMILY = List.of("CUSTOMERS", "ORDERS", "VISITS", "ACCOUNTS");
  private static final String[] DDL = {
      "CREATE TABLE IF NOT EXISTS CUSTOMERS (CUSTOMER_ID INT PRIMARY KEY, NAME VARCHAR(40))",
      "CREATE TABLE IF NOT EXISTS ORDERS (ORDER_ID INT PRIMARY KEY, CUSTOMER_ID INT,"
          + " AMOUNT DECIMAL(12, 2))",
      "CREATE TABLE IF NOT EXISTS VISITS_LOW (VISIT_ID INT PRIMARY KEY, REGION VARCHAR(10),"
          + " VISIT_DAY INT)",
      "CREATE TABLE IF NOT EXISTS VISITS_HIGH (VISIT_ID INT PRIMARY KEY, REGION VARCHAR(10),"
          + " VISIT_DAY INT)",
      "CREATE TABLE IF NOT EXISTS ACCOUNTS (ACCOUNT_ID INT PRIMARY KEY, CLASS VARCHAR(5),"
          + " CUSTOMER_ID INT)",
      "CREATE TABLE IF NOT EXISTS REGIONS (REGION_ID INT PRIMARY KEY, NAME VARCHAR(20))"};
  private static final int REGIONS = 5;
  /** The first visit of subpartition HIGH. */
  private static final int VISITS_SPLIT = 100;

  private final FamilyShards shards;
  private final Path modelFile;
  /** The file the model is read from: the model file, or a file pointing at a catalog. */
  private Path readFrom;
  private final int customers;
  private final int orders;

  /**
   * A fixture whose shards are H2 in-memory databases.
   *
   * @param name names the shards' databases, unique per test
   */
  static MoveFixture h2(String name, Path folder, int customers, int orders) {
    return new MoveFixture(FamilyShards.h2(folder, "reshard-mover-" + name, false), folder,
        customers, orders);
  }

  MoveFixture(FamilyShards shards, Path folder, int customers, int orders) {
    this.shards = shards;
    this.modelFile = folder.resolve("model.json");
    this.readFrom = modelFile;
    this.customers = customers;
    this.orders = orders;
  }

  Path modelFile() {
    return modelFile;
  }

  /** The model object of the fifth shard, as a user would give it. */
  Map<String, Object> fifthShard() {
    return shards.shard("s4");
  }

  /** Empties every shard, writes the four-shard model and loads the rows where they route. */
  void reset() throws IOException, SQLException {
    for (int i = 0; i < 5; i++) {
      shards.wipe("s" + i);
      if (i < 4) {
        try (Connection c = connect(i); Statement s = c.createStatement()) {
          for (String ddl : DDL) {
            s.execute(ddl);
          }
        }
      }
    }
    Files.writeString(modelFile, String.format(Locale.ROOT, """
        {"version": "1.0", "defaultSchema": "S", "schemas": [{
          "name": "S", "type": "custom", "factory": "io.shardset.calcite.ShardSchemaFactory",
          "operand": {
            "shards": [
              %s],
            "tables": [
              {"name": "CUSTOMERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
              {"name": "ORDERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
              {"name": "VISITS", "method": "consistent-hash", "shardKey": ["REGION", "VISIT_DAY"],
               "shards": ["s0", "s1", "s2", "s3"],
               "subpartitions": {"column": "VISIT_ID", "ranges": [
                 {"name": "LOW", "to": %2$d}, {"name": "HIGH", "from": %2$d}]}},
              {"name": "ACCOUNTS", "method": "composite", "shardKey": ["CUSTOMER_ID"],
               "partitionBy": {"column": "CLASS", "method": "list", "sets": [
                 {"name": "gold", "values": ["gold"], "shardspace": "default"},
                 {"name": "other", "default": true, "shardspace": "default"}]}},
              {"name": "REGIONS", "method": "duplicated", "shards": ["s0", "s1", "s2", "s3"]}
            ]
          }
        }]}
        """, shards.shardsJson(4), VISITS_SPLIT));
    load();
  }

  private void load() throws SQLException {
    ShardSetModel model = model();
    ShardSchema schema = ShardSetRuntime.get().schema(model);
    Map<String, Connection> connections = new HashMap<>();
    try {
      for (int i = 0; i < 4; i++) {
        Connection c = connect(i);
        c.setAutoCommit(false);
        connections.put("s" + i, c);
      }
      RowOwners customerOwners = RowOwners.of(schema.table("CUSTOMERS").sharded(), model);
      insert(connections, customerOwners, "CUSTOMERS", customers,
          id -> new Object[] {id, "customer " + id});
      insert(connections, RowOwners.of(schema.table("ORDERS").sharded(), model),
          "ORDERS", orders,
          id -> new Object[] {id, id % 97 == 0 ? null : id % customers,
              BigDecimal.valueOf(id, 2)});
      insert(connections, RowOwners.of(schema.table("VISITS").sharded(), model),
          "VISITS", orders / 2, MoveFixture::visit);
      insert(connections, RowOwners.of(schema.table("ACCOUNTS").sharded(), model),
          "ACCOUNTS", customers, MoveFixture::account);
      for (Connection c : connections.values()) {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO REGIONS VALUES (?, ?)")) {
          for (int r = 0; r < REGIONS; r++) {
            p.setInt(1, r);
            p.setString(2, "region " + r);
            p.addBatch();
          }
          p.executeBatch();
        }
        c.commit();
      }
    } finally {
      for (Connection c : connections.values()) {
        c.close();
      }
    }
  }

  /** A visit: its key has two columns, the second sometimes NULL. */
  private static Object[] visit(int id) {
    return new Object[] {id, "r" + id % 7, id % 13 == 0 ? null : id % 50};
  }

  /** An account of a composite table: its routing key is the class, then the customer. */
  private static Object[] account(int id) {
    return new Object[] {id, id % 3 == 0 ? "gold" : "basic", id / 2};
  }

  /** Makes the row with a given id of one table. */
  private interface RowMaker {
    Object[] row(int id);
  }

  /** Inserts rows on the shards they route to, into the physical tables that hold them. */
  private static void insert(Map<String, Connection> connections, RowOwners owners,
      String table, int count, RowMaker maker) throws SQLException {
    Map<String, PreparedStatement> statements = new HashMap<>();
    for (int id = 0; id < count; id++) {
      Object[] row = maker.row(id);
      List<Object> key = new ArrayList<>();
      owners.keyColumns().forEach(c -> key.add(row[c]));
      String owner = owners.ownerOf(key);
      String physical = table.equals("VISITS")
          ? (id < VISITS_SPLIT ? "VISITS_LOW" : "VISITS_HIGH") : table;
      PreparedStatement p = statements.get(owner + "." + physical);
      if (p == null) {
        p = connections.get(owner).prepareStatement("INSERT INTO " + physical + " VALUES ("
            + String.join(", ", Collections.nCopies(row.length, "?")) + ")");
        statements.put(owner + "." + physical, p);
      }
      for (int c = 0; c < row.length; c++) {
        p.setObject(c + 1, row[c]);
      }
      p.addBatch();
    }
    for (PreparedStatement p : statements.values()) {
      p.executeBatch();
      p.close();
    }
  }

  Connection connect(int shard) throws SQLException {
    return shards.connect("s" + shard);
  }

  ShardSetModel model() {
    return ModelFile.read(readFrom).model(FamilyShards.SCHEMA);
  }

  /** {@code count} customer ids from 100,000 on, none loaded, that the model places on a shard. */
  List<Integer> newCustomersOn(String shard, int count) {
    RowOwners owners = customerOwners(model());
    return IntStream.range(100_000, 101_000)
        .filter(id -> owners.ownerOf(List.of(id)).equals(shard)).limit(count).boxed().toList();
  }

  /**
   * Asserts that each customer is once on the shard the model now places it, and on no other;
   * and that some of them are no longer on {@code before}.
   */
  void assertCustomersWhereTheyRoute(List<Integer> customers, String before)
      throws SQLException {
    RowOwners now = customerOwners(model());
    int moved = 0;
    for (int id : customers) {
      String owner = now.ownerOf(List.of(id));
      moved += owner.equals(before) ? 0 : 1;
      for (int shard = 0; shard < 5; shard++) {
        try (Connection c = connect(shard);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM CUSTOMERS WHERE"
                 + " CUSTOMER_ID = " + id)) {
          rs.next();
          assertEquals(owner.equals("s" + shard) ? 1 : 0, rs.getInt(1),
              "customer " + id + " on s" + shard + ", owned by " + owner);
        }
      }
    }
    assertTrue(moved > 0, "none of the customers left " + before);
  }

  private static RowOwners customerOwners(ShardSetModel model) {
    return RowOwners.of(ShardSetRuntime.get().schema(model).table("CUSTOMERS").sharded(),
        model);
  }

  /** Reads the model from this file from now on (one that points at a catalog, say). */
  void readModelFrom(Path file) {
    readFrom = file;
  }

  /** Creates the family and the duplicated table on the new shard and copies REGIONS there. */
  NewShardPreparer preparer() {
    return (before, after, shard) -> {
      assertEquals("s4", shard);
      try (Connection c = connect(4); Statement s = c.createStatement()) {
        for (String ddl : DDL) {
          s.execute(ddl);
        }
        s.execute("DELETE FROM REGIONS");
        for (int r = 0; r < REGIONS; r++) {
          s.execute("INSERT INTO REGIONS VALUES (" + r + ", 'region " + r + "')");
        }
      }
    };
  }

  /** Every row of a table, as text, in a stable order: what the fixture loaded. */
  List<String> expectedRows(String table) {
    List<String> rows = new ArrayList<>();
    if (table.equals("CUSTOMERS")) {
      for (int id = 0; id < customers; id++) {
        rows.add(id + "|customer " + id);
      }
    } else if (table.equals("ACCOUNTS")) {
      for (int id = 0; id < customers; id++) {
        Object[] account = account(id);
        rows.add(account[0] + "|" + account[1] + "|" + account[2]);
      }
    } else if (table.equals("VISITS")) {
      for (int id = 0; id < orders / 2; id++) {
        Object[] visit = visit(id);
        rows.add(visit[0] + "|" + visit[1] + "|" + visit[2]);
      }
    } else {
      for (int id = 0; id < orders; id++) {
        rows.add(id + "|" + (id % 97 == 0 ? null : id % customers) + "|"
            + BigDecimal.valueOf(id, 2));
      }
    }
    rows.sort(null);
    return rows;
  }

  /**
   * The rows a reader of the model file now reads: each shard's table, and its move table when
   * the model says the shard reads it; each row checked to sit on the shard its key routes to
   * under that model.
   */
  Map<String, List<String>> readableRows() throws SQLException {
    ShardSetModel model = model();
    ShardSchema schema = ShardSetRuntime.get().schema(model);
    Map<String, List<String>> rows = new HashMap<>();
    for (String table : FAMILY) {
      rows.put(table, readableRows(model, schema.table(table).sharded()));
    }
    return rows;
  }

  private List<String> readableRows(ShardSetModel model, ShardedTable table)
      throws SQLException {
    String tableName = table.spec().name();
    ReshardSpec reshard = model.reshard();
    TableSpec spec = table.spec();
    RowOwners owners = RowOwners.of(table, model);
    List<String> rows = new ArrayList<>();
    for (String shard : spec.shards()) {
      List<String> sources = new ArrayList<>(physical(tableName));
      if (reshard != null && reshard.carries(spec) && reshard.readsMoveTables(shard)) {
        physical(tableName).forEach(p -> sources.add(MoveTables.name(p)));
      }
      for (String source : sources) {
        rows.addAll(shards.placedRows(shard, source, tableName, owners));
      }
    }
    rows.sort(null);
    return rows;
  }

  /** The move tables on each of the five shards, by shard. */
  Map<String, List<String>> moveTables() throws SQLException {
    return shards.moveTables(5);
  }

  /** The number of rows of a table on a shard. */
  long count(int shard, String table) throws SQLException {
    long rows = 0;
    try (Connection c = connect(shard); Statement s = c.createStatement()) {
      for (String physical : physical(table)) {
        try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + physical)) {
          r.next();
          rows += r.getLong(1);
        }
      }
    }
    return rows;
  }

  /** The physical tables of a table on each shard: VISITS has two subpartitions. */
  private static List<String> physical(String table) {
    return table.equals("VISITS") ? List.of("VISITS_LOW", "VISITS_HIGH") : List.of(table);
  }
}
