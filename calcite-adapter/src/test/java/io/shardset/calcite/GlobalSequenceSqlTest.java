package io.shardset.calcite;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A global sequence through SQL: the default of a column an INSERT leaves out (its values
 * returned as generated keys), {@code NEXT VALUE FOR} in a query and in VALUES; values unique
 * across the shards that hold the rows, increasing within the process whichever connection
 * takes them; the sequence listed by JDBC metadata; and clear errors for a sequence read as a
 * table, an unknown sequence and a column the table does not have.
 */
class GlobalSequenceSqlTest {
  private static final String DDL = "CREATE TABLE ORDERS (ORDER_ID BIGINT PRIMARY KEY,"
      + " CUSTOMER_ID INTEGER NOT NULL, AMOUNT DECIMAL(10, 2))";
  private static final String TABLES = """
      "sequences": [{"name": "ORDER_IDS", "start": 1, "blockSize": 10}],
      "tables": [{"name": "ORDERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"],
                  "columnSequences": {"ORDER_ID": "ORDER_IDS"}}]""";

  private ShardFixture fixture;

  @BeforeEach void createShards() {
    fixture = ShardFixture.h2(2, DDL);
  }

  @AfterEach void closeShards() throws SQLException {
    fixture.close();
  }

  @Test void anInsertLeavingTheColumnOutTakesTheNextValuesAndReturnsThem() throws Exception {
    final List<Long> returned = new ArrayList<>();
    try (Connection c = Connector.SHARDSET.open(fixture.model(TABLES));
         PreparedStatement insert = c.prepareStatement(
             "INSERT INTO ORDERS (CUSTOMER_ID, AMOUNT) VALUES (?, ?)",
             Statement.RETURN_GENERATED_KEYS)) {
      for (int customer = 1; customer <= 25; customer++) {
        insert.setInt(1, customer);
        insert.setInt(2, customer);
        assertEquals(1, insert.executeUpdate());
        try (ResultSet keys = insert.getGeneratedKeys()) {
          assertTrue(keys.next());
          assertEquals("ORDER_ID", keys.getMetaData().getColumnName(1));
          returned.add(keys.getLong(1));
          assertFalse(keys.next());
        }
      }
      try (Statement s = c.createStatement()) {
        assertEquals(2, s.executeUpdate(
            "INSERT INTO ORDERS (CUSTOMER_ID, AMOUNT) VALUES (26, 1), (27, 2)"));
        assertEquals(1, s.executeUpdate("INSERT INTO ORDERS (ORDER_ID, CUSTOMER_ID, AMOUNT)"
            + " VALUES (NEXT VALUE FOR ORDER_IDS, 28, 3)"));
        try (ResultSet rs = s.executeQuery("SELECT NEXT VALUE FOR ORDER_IDS")) {
          assertTrue(rs.next());
          assertEquals(29, rs.getLong(1));
        }
      }
    }
    // One process, one block at a time: 1 to 25 in order, three blocks of ten taken.
    assertEquals(LongStream.rangeClosed(1, 25).boxed().toList(), returned);
    // Another connection of the process goes on from the same block; on Calcite's own driver
    // the column's default does, and NEXT VALUE FOR (Calcite's counter per thread) is refused.
    try (Connection c = Connector.CALCITE.open(fixture.model(TABLES));
         Statement s = c.createStatement()) {
      assertEquals(1, s.executeUpdate("INSERT INTO ORDERS (CUSTOMER_ID, AMOUNT) VALUES (29, 4)"));
      final SQLException refused = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT NEXT VALUE FOR ORDER_IDS"));
      assertTrue(refused.getMessage().contains("on jdbc:calcite:, NEXT VALUE FOR is Calcite's"
          + " own counter, kept per thread, not a global sequence: connect with jdbc:shardset:,"
          + " or leave the column out of the INSERT to take its sequence's next value"),
          refused.getMessage());
    }
    // The shards hold 29 rows with 29 different ids: 1 to 28, and 30.
    final Set<Long> ids = new HashSet<>();
    int rows = 0;
    for (String shard : fixture.shards().names()) {
      final ShardConnectionSettings settings = fixture.shards().settings(shard);
      try (Connection c = DriverManager.getConnection(settings.jdbcUrl(), settings.user(), "");
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT ORDER_ID FROM ORDERS")) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
          rows++;
        }
      }
    }
    assertEquals(29, rows);
    final Set<Long> expected = new HashSet<>(LongStream.rangeClosed(1, 28).boxed().toList());
    expected.add(30L);
    assertEquals(expected, ids);
  }

  @Test void theSequenceIsListedAndCannotBeReadAsATable() throws Exception {
    try (Connection c = Connector.SHARDSET.open(fixture.model(TABLES))) {
      try (ResultSet rs = c.getMetaData().getTables(null, ShardFixture.SCHEMA, "ORDER_IDS",
          null)) {
        assertTrue(rs.next());
        assertEquals("SEQUENCE", rs.getString("TABLE_TYPE"));
      }
      final SQLException read = assertThrows(SQLException.class,
          () -> ShardFixture.rows(c, "SELECT * FROM ORDER_IDS"));
      assertTrue(read.getMessage().contains("ORDER_IDS is a sequence, which has no rows: take"
          + " its values with NEXT VALUE FOR ORDER_IDS"), read.getMessage());
    }
  }

  @Test void unknownSequencesAndColumnsAreRefusedNamingThem() {
    final Exception sequence = assertThrows(Exception.class, () -> Connector.SHARDSET.open(
        fixture.model(TABLES.replace("\"ORDER_ID\": \"ORDER_IDS\"", "\"ORDER_ID\": \"NOPE\""))));
    assertTrue(rootMessage(sequence).equals("Invalid ShardSet model: schema 'S', table"
        + " 'ORDERS', field 'columnSequences.ORDER_ID': names no sequence of the schema;"
        + " sequences are [ORDER_IDS]"), rootMessage(sequence));
    final Exception column = assertThrows(Exception.class, () -> Connector.SHARDSET.open(
        fixture.model(TABLES.replace("\"ORDER_ID\": \"ORDER_IDS\"", "\"ID\": \"ORDER_IDS\""))));
    assertEquals("table S.ORDERS: columnSequences names column 'ID', which the table does not"
        + " have", rootMessage(column));
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause.getMessage();
  }
}
