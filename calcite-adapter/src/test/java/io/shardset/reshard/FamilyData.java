package io.shardset.reshard;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.load.ShardedInserter;
import io.shardset.model.ShardSetModel;
import io.shardset.testing.QueryAssert;
import io.shardset.testing.ShardFixture;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A table family (CUSTOMERS and ORDERS hashed on CUSTOMER_ID, COUNTRIES duplicated) on shards
 * s0..s4 (H2 or PostgreSQL) described by a model file, an unsharded oracle with the same rows,
 * and the queries whose answers must not change while the family is resharded.
 */
final class FamilyData implements AutoCloseable {
  private final Path folder;
  private final FamilyShards databases;
  private final int customers;
  private final int orders;
  private final List<Connection> open = new ArrayList<>();
  private @Nullable Connection oracle;

  /** A family on H2 databases (see {@link FamilyShards#h2}) whose model file lives in a
   * folder. */
  FamilyData(Path folder, String prefix, boolean files, int customers, int orders) {
    this(folder, FamilyShards.h2(folder, prefix, files), customers, orders);
  }

  /** A family whose model file lives in {@code folder}. */
  FamilyData(Path folder, FamilyShards databases, int customers, int orders) {
    this.folder = folder;
    this.databases = databases;
    this.customers = customers;
    this.orders = orders;
  }

  /** Opens a shard's database and keeps it open until {@link #close()}. */
  void open(String shard) throws SQLException {
    open.add(connect(shard));
  }

  /** A plain connection to one of the databases (a shard or "oracle"). */
  Connection connect(String database) throws SQLException {
    return databases.connect(database);
  }

  /** The model's object for a shard, as an add-shard operation takes it. */
  Map<String, Object> shard(String name) {
    return databases.shard(name);
  }

  /** Checks that each row of the hashed tables sits on the shard a model routes it to. */
  void assertPlaced(ShardSetModel model, int shards) throws SQLException {
    final ShardSchema schema = ShardSetRuntime.get().schema(model);
    for (String table : List.of("CUSTOMERS", "ORDERS")) {
      final RowOwners owners = RowOwners.of(schema.table(table).sharded(), model);
      long rows = 0;
      for (int i = 0; i < shards; i++) {
        try {
          rows += databases.placedRows("s" + i, table, table, owners).size();
        } catch (SQLException e) {
          if (!isMissingTable(e)) {
            throw e;
          }
        }
      }
      assertEquals(table.equals("ORDERS") ? orders : customers, rows, table + " rows");
    }
  }

  /** Whether a query failed because the shard has no such table (yet, or any more). */
  private static boolean isMissingTable(SQLException e) {
    final String message = String.valueOf(e.getMessage());
    return message.contains("not found") || message.contains("does not exist");
  }

  /** The move tables on shards s0..s{shards - 1}, by shard. */
  Map<String, List<String>> moveTables(int shards) throws SQLException {
    return databases.moveTables(shards);
  }

  /** All rows of the hashed tables. */
  int rows() {
    return customers + orders;
  }

  @Override public void close() {
    for (Connection c : open) {
      try (Statement s = c.createStatement()) {
        if (databases.h2()) {
          s.execute("SHUTDOWN");
        }
        c.close();
      } catch (SQLException e) {
        // Already closed.
      }
    }
  }

  private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "RETURNED"};
  private static final String[] COUNTRIES = {"DE", "FR", "IT", "JP", "US", "BR"};
  private static final String[] DDL = {
      "CREATE TABLE CUSTOMERS (CUSTOMER_ID BIGINT PRIMARY KEY, NAME VARCHAR(40),"
          + " COUNTRY CHAR(2))",
      "CREATE TABLE ORDERS (ORDER_ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT NOT NULL,"
          + " STATUS VARCHAR(10), AMOUNT DECIMAL(12, 2), ORDERED_ON DATE)",
      "CREATE TABLE COUNTRIES (CODE CHAR(2) PRIMARY KEY, NAME VARCHAR(40))"};
  private static final String TABLES = """
      "tables": [
        {"name": "CUSTOMERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
        {"name": "ORDERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
        {"name": "COUNTRIES", "method": "duplicated"}]""";
  /** Keys some of which move and some not, for point and IN queries. */
  private static final long[] PROBES = {1, 2, 3, 77, 1_234, 5_000, 9_999};
  private static final List<String> QUERIES = List.of(
      "SELECT COUNT(*), SUM(AMOUNT) FROM ORDERS",
      "SELECT STATUS, COUNT(*), SUM(AMOUNT), MIN(ORDERED_ON) FROM ORDERS GROUP BY STATUS"
          + " ORDER BY STATUS",
      "SELECT c.COUNTRY, COUNT(*), SUM(o.AMOUNT) FROM CUSTOMERS c"
          + " JOIN ORDERS o ON c.CUSTOMER_ID = o.CUSTOMER_ID GROUP BY c.COUNTRY"
          + " ORDER BY c.COUNTRY",
      "SELECT k.NAME, COUNT(*) FROM CUSTOMERS c JOIN COUNTRIES k ON c.COUNTRY = k.CODE"
          + " GROUP BY k.NAME ORDER BY k.NAME",
      "SELECT CUSTOMER_ID, SUM(AMOUNT) FROM ORDERS GROUP BY CUSTOMER_ID"
          + " ORDER BY 2 DESC, 1 LIMIT 5",
      "SELECT COUNT(DISTINCT CUSTOMER_ID) FROM ORDERS",
      "SELECT ORDER_ID, AMOUNT FROM ORDERS WHERE CUSTOMER_ID IN (1, 2, 3, 77, 1234)"
          + " ORDER BY ORDER_ID");
  private static final String POINT =
      "SELECT ORDER_ID, STATUS, AMOUNT FROM ORDERS WHERE CUSTOMER_ID = ? ORDER BY ORDER_ID";

  /** A fluent assertion on a query through ShardSet, compared with this family's oracle. */
  QueryAssert sql(Connection connection, String sql) {
    return QueryAssert.uncounted(connection, sql,
        Objects.requireNonNull(oracle, "the family is not loaded"));
  }

  /** Asserts that every query, and the point query for each probe key, returns through
   * {@code connection} what the oracle returns. */
  void assertAnswersUnsharded(Connection connection) {
    for (String sql : QUERIES) {
      sql(connection, sql).returnsUnshardedInOrder();
    }
    for (long key : PROBES) {
      sql(connection, POINT).withParameters(key).returnsUnshardedInOrder();
    }
  }

  /** Every query's answer, and the point query's for each probe key, through ShardSet. */
  static Map<String, String> answers(Connection c) throws SQLException {
    final Map<String, String> answers = new LinkedHashMap<>();
    try (Statement s = c.createStatement()) {
      for (String sql : QUERIES) {
        try (ResultSet rs = s.executeQuery(sql)) {
          answers.put(sql, text(rs));
        }
      }
    }
    try (PreparedStatement p = c.prepareStatement(POINT)) {
      for (long key : PROBES) {
        p.setLong(1, key);
        try (ResultSet rs = p.executeQuery()) {
          answers.put(POINT + " [" + key + "]", text(rs));
        }
      }
    }
    return answers;
  }

  private static String text(ResultSet rs) throws SQLException {
    return String.join("; ", ShardFixture.rows(rs));
  }

  static Connection connect(Path model) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("model", model.toString());
    return DriverManager.getConnection("jdbc:shardset:", info);
  }

  String url(String shard) {
    return databases.url().apply(shard);
  }

  /** A model file of the first {@code shards} of s0..s4, with default placement. */
  Path writeModel(int shards) throws Exception {
    final Path model = folder.resolve("model.json");
    Files.writeString(model, String.format(Locale.ROOT, """
        {"version": "1.0", "defaultSchema": "S", "schemas": [{"name": "S", "type": "custom",
          "factory": "io.shardset.calcite.ShardSchemaFactory",
          "operand": {"shards": [
            %s],
            %s}}]}""", databases.shardsJson(shards), TABLES));
    return model;
  }

  /**
   * Creates the tables on s0..s{shards - 1} and the oracle, loads the rows through ShardSet's
   * routing, installs the trigger, and returns the oracle's answers.
   */
  Map<String, String> load(Path model, int shards) throws Exception {
    for (int i = 0; i < shards; i++) {
      final Connection c = connect("s" + i);
      open.add(c);
      try (Statement s = c.createStatement()) {
        for (String ddl : DDL) {
          s.execute(ddl);
        }
      }
    }
    // The shard that may join: an empty database, so that it exists until the test ends.
    if (shards == 4) {
      open.add(connect("s4"));
    }
    final Connection oracle = connect("oracle");
    open.add(oracle);
    this.oracle = oracle;
    try (Statement s = oracle.createStatement()) {
      for (String ddl : DDL) {
        s.execute(ddl);
      }
    }
    final ShardSchema schema =
        ShardSetRuntime.get().schema(ModelFile.read(model).model(FamilyShards.SCHEMA));
    final List<Object[]> countries = new ArrayList<>();
    for (String code : COUNTRIES) {
      countries.add(new Object[] {code, "Country " + code});
    }
    insert(schema, oracle, "COUNTRIES", countries);
    final List<Object[]> customerRows = new ArrayList<>();
    for (long id = 1; id <= customers; id++) {
      customerRows.add(
          new Object[] {id, "Customer " + id, COUNTRIES[(int) (id % COUNTRIES.length)]});
    }
    insert(schema, oracle, "CUSTOMERS", customerRows);
    final List<Object[]> orderRows = new ArrayList<>();
    for (long id = 1; id <= orders; id++) {
      orderRows.add(new Object[] {id, 1 + (id * 7919) % customers, STATUSES[(int) (id % 4)],
          BigDecimal.valueOf(id % 10_000, 2),
          LocalDate.of(2024, 1, 1).plusDays(id % 365)});
    }
    insert(schema, oracle, "ORDERS", orderRows);
    for (int i = 0; i < shards && databases.h2(); i++) {
      for (String table : List.of("CUSTOMERS", "ORDERS")) {
        TouchedRows.install(open.get(i), "s" + i, table);
      }
    }
    return answers(oracle);
  }

  private static void insert(ShardSchema schema, Connection oracle, String table,
      List<Object[]> rows) throws SQLException {
    try (ShardedInserter inserter = ShardedInserter.open(schema.table(table).sharded(), 1_000)) {
      rows.forEach(inserter::insert);
    }
    ShardFixture.insert(oracle, table, rows);
  }

  /** For CUSTOMERS and ORDERS, the shard of each row by its first column, read directly. */
  Map<String, Map<Long, String>> placement(int shards) throws SQLException {
    final Map<String, Map<Long, String>> placement = new TreeMap<>();
    for (String table : List.of("CUSTOMERS", "ORDERS")) {
      final Map<Long, String> rows = new HashMap<>();
      for (int i = 0; i < shards; i++) {
        final String shard = "s" + i;
        try (Connection c = connect(shard);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
          while (rs.next()) {
            final String previous = rows.put(rs.getLong(1), shard);
            assertEquals(null, previous, table + " row " + rs.getLong(1) + " on " + previous
                + " and " + shard);
          }
        } catch (SQLException e) {
          if (!isMissingTable(e)) {
            throw e;
          }
        }
      }
      assertEquals(table.equals("ORDERS") ? orders : customers, rows.size(), table + " rows");
      placement.put(table, rows);
    }
    return placement;
  }

}
