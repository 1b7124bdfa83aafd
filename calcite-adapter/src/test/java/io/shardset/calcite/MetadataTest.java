package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link DatabaseMetaData} of a {@code jdbc:shardset:} connection says: the plain type
 * name in getColumns' TYPE_NAME with size and nullability in their own columns, the NULL
 * ordering its queries really use, and ShardSet's own name and version.
 */
class MetadataTest {
  private ShardFixture fixture;
  private String model;
  private Connection connection;

  @BeforeEach void create() throws SQLException {
    fixture = ShardFixture.h2(2, "CREATE TABLE T (K BIGINT PRIMARY KEY,"
        + " NAME VARCHAR(40) NOT NULL, AMOUNT DECIMAL(12, 2), N INTEGER, D DATE,"
        + " AT TIMESTAMP(3))",
        "CREATE TABLE VISITS (C BIGINT NOT NULL, SITE VARCHAR(8) NOT NULL, HITS INTEGER,"
        + " PRIMARY KEY (SITE, C))",
        "CREATE TABLE EVENTS (C BIGINT NOT NULL, AT TIMESTAMP)");
    model = fixture.model("\"tables\": [\n"
        + "  {\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},\n"
        + "  {\"name\": \"VISITS\", \"method\": \"consistent-hash\", \"shardKey\": [\"C\"]},\n"
        + "  {\"name\": \"EVENTS\", \"method\": \"consistent-hash\", \"shardKey\": [\"C\"]}]");
    connection = open(model);
  }

  /** The connection whose metadata the tests read; the server module's test reads a remote
   * one. */
  Connection open(String model) throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  /** The connection the tests read the metadata of. */
  Connection connection() {
    return connection;
  }

  /** Stops what {@link #open(String)} started besides the connection. */
  void stop() throws Exception {
  }

  @AfterEach void close() throws Exception {
    try {
      connection.close();
      stop();
    } finally {
      fixture.close();
    }
  }

  /** The columns of {@code S.T}: name, DATA_TYPE, TYPE_NAME, COLUMN_SIZE, DECIMAL_DIGITS,
   * NULLABLE and IS_NULLABLE. */
  static List<String> columns(DatabaseMetaData md) throws SQLException {
    final List<String> columns = new ArrayList<>();
    try (ResultSet rs = md.getColumns(null, ShardFixture.SCHEMA, "T", "%")) {
      while (rs.next()) {
        columns.add(String.join(":", rs.getString("COLUMN_NAME"), rs.getString("DATA_TYPE"),
            rs.getString("TYPE_NAME"), rs.getString("COLUMN_SIZE"),
            rs.getString("DECIMAL_DIGITS"), rs.getString("NULLABLE"),
            rs.getString("IS_NULLABLE")));
      }
    }
    return columns;
  }

  /** What getColumns says of {@code S.T}. */
  static final List<String> EXPECTED_COLUMNS = List.of("K:-5:BIGINT:19:null:0:NO",
      "NAME:12:VARCHAR:40:null:0:NO", "AMOUNT:3:DECIMAL:12:2:1:YES",
      "N:4:INTEGER:10:null:1:YES", "D:91:DATE:10:null:1:YES",
      "AT:93:TIMESTAMP:23:3:1:YES");

  /** Primary keys as the shards declare them, in key order; none for a table without. */
  @Test void primaryKeysAreTheShardsKeys() throws SQLException {
    final DatabaseMetaData md = connection.getMetaData();
    assertEquals(List.of("S.T.K:1:T_PK"), primaryKeys(md, ShardFixture.SCHEMA, "T"));
    assertEquals(List.of("S.VISITS.SITE:1:VISITS_PK", "S.VISITS.C:2:VISITS_PK"),
        primaryKeys(md, null, "VISITS"));
    assertEquals(List.of(), primaryKeys(md, ShardFixture.SCHEMA, "EVENTS"));
    assertEquals(List.of(), primaryKeys(md, "OTHER", "T"));
    assertEquals(List.of("S.T.K:1:T_PK", "S.VISITS.SITE:1:VISITS_PK",
        "S.VISITS.C:2:VISITS_PK"), primaryKeys(md, null, null));
  }

  private static List<String> primaryKeys(DatabaseMetaData md, String schema, String table)
      throws SQLException {
    final List<String> keys = new ArrayList<>();
    try (ResultSet rs = md.getPrimaryKeys(null, schema, table)) {
      while (rs.next()) {
        keys.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + "."
            + rs.getString("COLUMN_NAME") + ":" + rs.getShort("KEY_SEQ") + ":"
            + rs.getString("PK_NAME"));
      }
    }
    return keys;
  }

  @Test void getColumnsNamesTheTypeAndGivesSizeAndNullabilityApart() throws SQLException {
    assertEquals(EXPECTED_COLUMNS, columns(connection.getMetaData()));
  }

  /** Rows of T whose N has NULLs, on both shards. */
  private void load() throws SQLException {
    try (Connection loader = Connector.SHARDSET.open(model)) {
      fixture.load(loader, "T", Arrays.asList(
          new Object[] {1L, "a", null, 5, null, null},
          new Object[] {2L, "b", null, null, null, null},
          new Object[] {3L, "c", null, 7, null, null},
          new Object[] {4L, "d", null, null, null, null},
          new Object[] {5L, "e", null, 6, null, null}));
    }
  }

  /** The four null-ordering answers, in the order High, Low, AtStart, AtEnd. */
  static List<Boolean> nullOrdering(DatabaseMetaData md) throws SQLException {
    return List.of(md.nullsAreSortedHigh(), md.nullsAreSortedLow(),
        md.nullsAreSortedAtStart(), md.nullsAreSortedAtEnd());
  }

  /**
   * NULLs sort high: last in ascending order, first in descending order, whether the shards
   * sort (with a LIMIT each shard applies) or ShardSet merges their sorted rows.
   */
  @Test void nullsSortHighAsTheMetadataSays() throws SQLException {
    load();
    assertEquals(List.of("5", "6", "7", "NULL", "NULL"),
        ShardFixture.rows(connection, "SELECT N FROM T ORDER BY N"));
    assertEquals(List.of("NULL", "NULL", "7", "6", "5"),
        ShardFixture.rows(connection, "SELECT N FROM T ORDER BY N DESC"));
    assertEquals(List.of("NULL", "NULL", "7"),
        ShardFixture.rows(connection, "SELECT N FROM T ORDER BY N DESC LIMIT 3"));
    assertEquals(List.of("5", "6"),
        ShardFixture.rows(connection, "SELECT N FROM T ORDER BY N LIMIT 2"));
    assertEquals(List.of(true, false, false, false), nullOrdering(connection.getMetaData()));
  }

  /** A connection that asks for another null collation sorts, and says, accordingly. */
  @Test void nullsSortAsTheConnectionsCollationSays() throws SQLException {
    load();
    final Properties info = Connector.info(model);
    info.setProperty("defaultNullCollation", "LOW");
    try (Connection low = DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX,
        info)) {
      assertEquals(List.of("NULL", "NULL", "5", "6", "7"),
          ShardFixture.rows(low, "SELECT N FROM T ORDER BY N"));
      assertEquals(List.of("7", "6", "5", "NULL", "NULL"),
          ShardFixture.rows(low, "SELECT N FROM T ORDER BY N DESC"));
      assertEquals(List.of("7", "6"),
          ShardFixture.rows(low, "SELECT N FROM T ORDER BY N DESC LIMIT 2"));
      assertEquals(List.of(false, true, false, false), nullOrdering(low.getMetaData()));
    }
  }

  @Test void theProductAndTheDriverAreShardSetInItsVersion() throws SQLException {
    final DatabaseMetaData md = connection.getMetaData();
    assertEquals("ShardSet", md.getDatabaseProductName());
    assertEquals("ShardSet JDBC Driver", md.getDriverName());
    assertVersion(md.getDatabaseProductVersion());
    assertEquals(md.getDatabaseProductVersion(), md.getDriverVersion());
    assertTrue(md.getDatabaseProductVersion().startsWith(
        md.getDatabaseMajorVersion() + "." + md.getDatabaseMinorVersion() + "."),
        md.getDatabaseProductVersion());
  }

  /** A version as Maven writes it, such as {@code 0.1.0-SNAPSHOT}. */
  static void assertVersion(String version) {
    assertTrue(version.matches("\\d+\\.\\d+(\\.\\d+)?(-[A-Za-z0-9.]+)?"), version);
    assertFalse(version.contains("unknown"), version);
  }
}
