package io.shardset.calcite;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the write tests on four shards of one backend share: the tables (hashed, range, list,
 * duplicated and subpartitioned) on the shards and on an unsharded copy (the oracle), emptied
 * before each test, the comparison of every logical table with the oracle, and the audit that
 * every row sits on the shard and physical table its key routes to (each shard's tables read
 * with plain JDBC, the shard computed by the spec's hash or the table's router).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WriteTestBase {
  static final int SHARDS = 4;
  static final int CHUNKS = 120 * SHARDS;
  static final List<String> TABLES = List.of("ORDERS", "BY_DATE", "BY_TS", "BY_DEC",
      "BY_NAME", "REGIONS", "TICKETS");

  ShardFixture fixture;
  String model;

  abstract Backend backend();

  /** The column type of a timestamp on this backend (MariaDB's TIMESTAMP is another thing). */
  String timestampType() {
    return "TIMESTAMP(3)";
  }

  String[] ddl(boolean oracle) {
    final String ts = timestampType();
    final List<String> ddl = new ArrayList<>(List.of(
        "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER VARCHAR(40),"
            + " AMOUNT DECIMAL(12, 2), ORDERED DATE, CREATED " + ts + ", QTY INTEGER)",
        "CREATE TABLE BY_DATE (D DATE, NOTE VARCHAR(40))",
        "CREATE TABLE BY_TS (TS " + ts + " PRIMARY KEY, NOTE VARCHAR(40))",
        "CREATE TABLE BY_DEC (AMOUNT DECIMAL(12, 2) PRIMARY KEY, NOTE VARCHAR(40))",
        "CREATE TABLE BY_NAME (NAME VARCHAR(40) PRIMARY KEY, NOTE VARCHAR(40))",
        "CREATE TABLE REGIONS (REGION VARCHAR(8) PRIMARY KEY, NAME VARCHAR(40))"));
    if (oracle) {
      ddl.add(tickets("TICKETS"));
    } else {
      ddl.add(tickets("TICKETS_LOW"));
      ddl.add(tickets("TICKETS_HIGH"));
    }
    return ddl.toArray(String[]::new);
  }

  private static String tickets(String name) {
    return "CREATE TABLE " + name + " (TICKET_ID INTEGER PRIMARY KEY, PRIORITY INTEGER NOT NULL,"
        + " TITLE VARCHAR(40))";
  }

  static final String TABLES_JSON = """
      "tables": [
        {"name": "ORDERS", "method": "consistent-hash", "shardKey": ["ID"]},
        {"name": "BY_DATE", "method": "range", "shardKey": ["D"],
         "ranges": [{"shard": "s0", "to": "1990-01-01"},
                    {"shard": "s1", "from": "1990-01-01", "to": "2010-01-01"},
                    {"shard": "s2", "from": "2010-01-01", "to": "2030-01-01"},
                    {"shard": "s3", "from": "2030-01-01"}]},
        {"name": "BY_TS", "method": "consistent-hash", "shardKey": ["TS"]},
        {"name": "BY_DEC", "method": "consistent-hash", "shardKey": ["AMOUNT"]},
        {"name": "BY_NAME", "method": "list", "shardKey": ["NAME"],
         "lists": [{"shard": "s0", "values": ["a", "b"]}, {"shard": "s1", "values": ["c"]},
                   {"shard": "s3", "default": true}]},
        {"name": "REGIONS", "method": "duplicated"},
        {"name": "TICKETS", "method": "range", "shardKey": ["TICKET_ID"],
         "ranges": [{"shard": "s0", "to": 100}, {"shard": "s1", "from": 100, "to": 200},
                    {"shard": "s2", "from": 200, "to": 300}, {"shard": "s3", "from": 300,
                     "to": 400}],
         "subpartitions": {"column": "PRIORITY", "physicalName": "TICKETS_{name}",
           "ranges": [{"name": "LOW", "to": 3}, {"name": "HIGH", "from": 3, "to": 6}]}}]""";

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), SHARDS, ddl(false));
    try (Statement s = fixture.oracle().createStatement()) {
      for (String sql : ddl(true)) {
        if (sql.contains("TICKETS ")) {
          s.execute(sql);
        }
      }
    }
    model = fixture.model(TABLES_JSON);
  }

  @AfterAll void tearDown() throws SQLException {
    fixture.close();
  }

  @BeforeEach void empty() throws SQLException {
    for (String shard : fixture.shards().names()) {
      try (Connection c = plain(shard); Statement s = c.createStatement()) {
        for (String table : List.of("ORDERS", "BY_DATE", "BY_TS", "BY_DEC", "BY_NAME",
            "REGIONS", "TICKETS_LOW", "TICKETS_HIGH")) {
          s.execute("DELETE FROM " + table);
        }
      }
    }
    try (Statement s = fixture.oracle().createStatement()) {
      for (String table : TABLES) {
        s.execute("DELETE FROM " + table);
      }
    }
  }

  /** A plain JDBC connection to a shard, past ShardSet. */
  Connection plain(String shard) throws SQLException {
    final ShardConnectionSettings settings = fixture.shards().settings(shard);
    return DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password());
  }


  void assertSameAsOracle(Connection c) throws SQLException {
    for (String table : TABLES) {
      final List<String> expected = sorted(fixture.oracleRows("SELECT * FROM " + table));
      assertEquals(expected, sorted(ShardFixture.rows(c, "SELECT * FROM " + table)), table);
    }
  }

  /**
   * Reads every shard's physical tables with plain JDBC and checks each row sits where its
   * key routes it: ORDERS by the spec's hash of a BIGINT, the others by the table's router,
   * REGIONS everywhere, TICKETS also in its PRIORITY's subpartition table.
   */
  void audit() throws SQLException {
    final Map<String, List<String>> found = new TreeMap<>();
    try (Connection c = Connector.CALCITE.open(model)) {
      final ShardSchema schema = ShardFixture.schema(c);
      for (int shard = 0; shard < SHARDS; shard++) {
        final String name = "s" + shard;
        try (Connection p = plain(name); Statement s = p.createStatement()) {
          try (ResultSet rs = s.executeQuery("SELECT ID FROM ORDERS")) {
            while (rs.next()) {
              assertEquals(shard, ExpectedPlacement.shardOfLong(rs.getLong(1), CHUNKS, SHARDS),
                  "ORDERS " + rs.getLong(1) + " on " + name);
            }
          }
          for (String table : List.of("BY_DATE", "BY_TS", "BY_DEC", "BY_NAME")) {
            try (ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
              while (rs.next()) {
                final Object key = key(rs);
                final OptionalInt expected = schema.table(table).router().shardOf(
                    List.of(key));
                assertEquals(OptionalInt.of(shard), expected, table + " " + key + " on "
                    + name);
                found.computeIfAbsent(table, t -> new ArrayList<>()).add(String.valueOf(key));
              }
            }
          }
          assertEquals(sorted(fixture.oracleRows("SELECT * FROM REGIONS")),
              sorted(ShardFixture.rows(p, "SELECT * FROM REGIONS")), "REGIONS on " + name);
          for (String sub : List.of("LOW", "HIGH")) {
            try (ResultSet rs = s.executeQuery("SELECT TICKET_ID, PRIORITY FROM TICKETS_"
                + sub)) {
              while (rs.next()) {
                assertEquals(shard, rs.getInt(1) / 100, "TICKETS " + rs.getInt(1));
                assertEquals(sub, rs.getInt(2) < 3 ? "LOW" : "HIGH", "TICKETS " + rs.getInt(1));
              }
            }
          }
        }
      }
    }
    for (Map.Entry<String, List<String>> e : found.entrySet()) {
      assertEquals(fixture.oracleRows("SELECT COUNT(*) FROM " + e.getKey()).get(0),
          String.valueOf(e.getValue().size()), e.getKey());
    }
  }

  private static Object key(ResultSet rs) throws SQLException {
    final Object value = rs.getObject(1);
    if (value instanceof Date date) {
      return date.toLocalDate();
    }
    if (value instanceof Timestamp stamp) {
      return stamp.toLocalDateTime();
    }
    if (value instanceof java.time.LocalDateTime || value instanceof LocalDate) {
      return value;
    }
    return value;
  }

  /** The rows of a table on every shard, read past ShardSet. */
  int rowsOnShards(String physicalTable) throws SQLException {
    int rows = 0;
    for (String shard : fixture.shards().names()) {
      try (Connection p = plain(shard); Statement s = p.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + physicalTable)) {
        rs.next();
        rows += rs.getInt(1);
      }
    }
    return rows;
  }

  static String message(SQLException e) {
    final String m = e.getMessage();
    final int at = m.indexOf("\": ");
    return at < 0 ? m : m.substring(at + 3);
  }

}
