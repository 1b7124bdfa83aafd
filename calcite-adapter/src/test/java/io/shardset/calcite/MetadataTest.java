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
import java.sql.Statement;
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
        "CREATE UNIQUE INDEX T_NAME ON T (NAME)",
        "CREATE INDEX T_N_D ON T (N, D DESC)",
        "CREATE TABLE VISITS (C BIGINT NOT NULL, SITE VARCHAR(8) NOT NULL, HITS INTEGER,"
        + " PRIMARY KEY (SITE, C),"
        + " CONSTRAINT VISITS_T FOREIGN KEY (C) REFERENCES T (K) ON DELETE CASCADE)",
        "CREATE TABLE EVENTS (C BIGINT NOT NULL, AT TIMESTAMP)",
        "CREATE INDEX EVENTS_C ON EVENTS (C)");
    // What one shard declares and the other does not is not the table's; what both declare
    // alike is, under the first shard's name.
    try (Connection s0 = fixture.shards().endpoint("s0").connect();
        Connection s1 = fixture.shards().endpoint("s1").connect();
        Statement statement = s0.createStatement();
        Statement other = s1.createStatement()) {
      statement.execute("CREATE INDEX EVENTS_AT ON EVENTS (AT)");
      statement.execute("CREATE INDEX EVENTS_C_AT ON EVENTS (C, AT)");
      statement.execute("ALTER TABLE EVENTS ADD CONSTRAINT EVENTS_T FOREIGN KEY (C)"
          + " REFERENCES T (K)");
      other.execute("CREATE INDEX EVENTS_AT_S1 ON EVENTS (AT)");
    }
    model = fixture.model("\"tables\": [\n"
        + "  {\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},\n"
        + "  {\"name\": \"VISITS\", \"method\": \"consistent-hash\", \"shardKey\": [\"C\"]},\n"
        + "  {\"name\": \"EVENTS\", \"method\": \"consistent-hash\", \"shardKey\": [\"C\"],\n"
        + "   \"references\": [{\"columns\": [\"C\"], \"table\": \"T\"}]}]");
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

  /** The named columns of each row of a metadata result, joined by colons. */
  static List<String> rows(ResultSet rs, String... columns) throws SQLException {
    try (rs) {
      final List<String> rows = new ArrayList<>();
      while (rs.next()) {
        final List<String> values = new ArrayList<>();
        for (String column : columns) {
          values.add(rs.getString(column));
        }
        rows.add(String.join(":", values));
      }
      return rows;
    }
  }

  static final String[] FOREIGN_KEY = {"PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME",
      "PKCOLUMN_NAME", "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME",
      "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE", "FK_NAME", "PK_NAME", "DEFERRABILITY"};

  /** The foreign key every shard declares (VISITS to T, a table of the same family); not the
   * one only shard s0 declares (EVENTS to T). */
  static final List<String> VISITS_T = List.of(
      "null:S:T:K:null:S:VISITS:C:1:1:0:VISITS_T:T_PK:7");

  /** The one the model declares (EVENTS to T): no action, not deferrable, named by default. */
  static final List<String> EVENTS_T = List.of(
      "null:S:T:K:null:S:EVENTS:C:1:3:3:EVENTS_T_FK:T_PK:7");

  @Test void foreignKeysAreThoseEveryShardDeclares() throws SQLException {
    final DatabaseMetaData md = connection.getMetaData();
    assertEquals(VISITS_T, rows(md.getImportedKeys(null, ShardFixture.SCHEMA, "VISITS"),
        FOREIGN_KEY));
    assertEquals(List.of(EVENTS_T.get(0), VISITS_T.get(0)),
        rows(md.getExportedKeys(null, ShardFixture.SCHEMA, "T"), FOREIGN_KEY));
    assertEquals(VISITS_T, rows(md.getCrossReference(null, ShardFixture.SCHEMA, "T", null,
        ShardFixture.SCHEMA, "VISITS"), FOREIGN_KEY));
    assertEquals(EVENTS_T, rows(md.getImportedKeys(null, ShardFixture.SCHEMA, "EVENTS"),
        FOREIGN_KEY));
    assertEquals(List.of(), rows(md.getImportedKeys(null, ShardFixture.SCHEMA, "T"),
        FOREIGN_KEY));
    assertEquals(List.of(), rows(md.getExportedKeys(null, ShardFixture.SCHEMA, "VISITS"),
        FOREIGN_KEY));
    assertEquals(List.of(), rows(md.getCrossReference(null, ShardFixture.SCHEMA, "VISITS",
        null, ShardFixture.SCHEMA, "T"), FOREIGN_KEY));
  }

  @Test void foreignKeysAreTheSameWhenShardsAreCheckedOnFirstUse() throws Exception {
    // Opening reads s0 alone, and takes s1's tables to be s0's, in a catalog it does not know.
    try (Connection firstUse = Connector.SHARDSET.open(model.replace("\"tables\": [",
        "\"checkShards\": \"onFirstUse\", \"tables\": ["))) {
      final DatabaseMetaData md = firstUse.getMetaData();
      assertEquals(VISITS_T, rows(md.getImportedKeys(null, ShardFixture.SCHEMA, "VISITS"),
          FOREIGN_KEY));
      assertEquals(EVENTS_T, rows(md.getImportedKeys(null, ShardFixture.SCHEMA, "EVENTS"),
          FOREIGN_KEY));
      assertEquals(List.of("null:S:EVENTS:true:null:EVENTS_AT:3:1:AT:A:0:0:null",
          "null:S:EVENTS:true:null:EVENTS_C:3:1:C:A:0:0:null"),
          rows(md.getIndexInfo(null, ShardFixture.SCHEMA, "EVENTS", false, true), INDEX));
    }
  }

  private static final String[] INDEX = {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME",
      "NON_UNIQUE", "INDEX_QUALIFIER", "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME",
      "ASC_OR_DESC", "CARDINALITY", "PAGES", "FILTER_CONDITION"};

  /**
   * The indexes every shard declares, the primary key's too; unique only where equal values
   * go to one shard (T_NAME is unique on each shard, but names do not choose the shard).
   */
  @Test void indexesAreThoseEveryShardDeclares() throws SQLException {
    final DatabaseMetaData md = connection.getMetaData();
    assertEquals(List.of("null:S:T:false:null:PRIMARY_KEY_5:3:1:K:A:0:0:null",
        "null:S:T:true:null:T_NAME:3:1:NAME:A:0:0:null",
        "null:S:T:true:null:T_N_D:3:1:N:A:0:0:null",
        "null:S:T:true:null:T_N_D:3:2:D:D:0:0:null"),
        rows(md.getIndexInfo(null, ShardFixture.SCHEMA, "T", false, true), INDEX));
    assertEquals(List.of("null:S:T:false:null:PRIMARY_KEY_5:3:1:K:A:0:0:null"),
        rows(md.getIndexInfo(null, ShardFixture.SCHEMA, "T", true, true), INDEX));
    // The shard key C is in the primary key: equal keys are on one shard.
    assertEquals(List.of("null:S:VISITS:false:null:PRIMARY_KEY_9:3:1:SITE:A:0:0:null",
        "null:S:VISITS:false:null:PRIMARY_KEY_9:3:2:C:A:0:0:null",
        "null:S:VISITS:true:null:VISITS_T_INDEX_9:3:1:C:A:0:0:null"),
        rows(md.getIndexInfo(null, null, "VISITS", false, false), INDEX));
    assertEquals(List.of("null:S:EVENTS:true:null:EVENTS_AT:3:1:AT:A:0:0:null",
        "null:S:EVENTS:true:null:EVENTS_C:3:1:C:A:0:0:null"),
        rows(md.getIndexInfo(null, ShardFixture.SCHEMA, "EVENTS", false, true), INDEX));
    assertEquals(List.of(), rows(md.getIndexInfo(null, "OTHER", "T", false, true), INDEX));
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
