package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What is particular to PostgreSQL shards: quoted mixed-case and reserved-word names, types
 * that H2 does not have (TEXT, NUMERIC without precision), parameters bound by type, and text
 * sorts done above the shards; compared with an unsharded PostgreSQL database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresShardsTest {
  private static final String DDL = "CREATE TABLE \"Order Items\" (\"Item Id\" BIGINT PRIMARY KEY,"
      + " \"select\" VARCHAR(20) NOT NULL, \"MixedCase\" TEXT, qty INTEGER NOT NULL,"
      + " price NUMERIC, created TIMESTAMP(3) NOT NULL, shipped BOOLEAN, score DOUBLE PRECISION)";
  private static final String[] WORDS = {"apple", "Banana", "cherry", "Äpfel", "zebra", "Zoo",
      "banana", "éclair", "a b", "a-b"};

  private ShardFixture fixture;
  private Connection connection;

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(Backend.POSTGRES, 4, DDL);
    connection = ShardFixture.connect(fixture.model("\"tables\": [{\"name\": \"ORDER_ITEMS\","
        + " \"physicalName\": \"Order Items\", \"method\": \"consistent-hash\","
        + " \"shardKey\": [\"Item Id\"]}]"));
    final List<Object[]> rows = new ArrayList<>();
    for (long id = 1; id <= 200; id++) {
      rows.add(new Object[] {id, WORDS[(int) (id % WORDS.length)],
          id % 9 == 0 ? null : "Text " + id, (int) (id % 17),
          id % 11 == 0 ? null : new BigDecimal(id + ".000" + id),
          LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_000_000).plusMinutes(id),
          id % 5 == 0 ? null : id % 2 == 0, id % 13 == 0 ? null : id / 8.0});
    }
    fixture.load(connection, "ORDER_ITEMS", "\"Order Items\"", rows);
  }

  @AfterAll void tearDown() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test void quotedMixedCaseAndReservedNames() throws SQLException {
    assertSame("SELECT \"Item Id\", \"select\", \"MixedCase\" FROM \"Order Items\""
            + " WHERE \"Item Id\" = 42",
        "SELECT \"Item Id\", \"SELECT\", \"MixedCase\" FROM ORDER_ITEMS WHERE \"Item Id\" = 42");
    assertEquals(1, fixture.shardsReached().size());
    assertSameUnordered("SELECT \"select\", COUNT(*), SUM(qty), MAX(\"MixedCase\")"
            + " FROM \"Order Items\" WHERE \"MixedCase\" LIKE 'Text 1%' GROUP BY \"select\"",
        "SELECT \"SELECT\", COUNT(*), SUM(QTY), MAX(\"MixedCase\") FROM ORDER_ITEMS"
            + " WHERE \"MixedCase\" LIKE 'Text 1%' GROUP BY \"SELECT\"");
  }

  @Test void typesMapToCalciteTypes() throws SQLException {
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT * FROM ORDER_ITEMS WHERE \"Item Id\" = 7")) {
      final ResultSetMetaData md = rs.getMetaData();
      final List<String> types = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        types.add(md.getColumnLabel(i) + " " + md.getColumnTypeName(i));
      }
      assertEquals(List.of("Item Id BIGINT", "SELECT VARCHAR", "MixedCase VARCHAR",
          "QTY INTEGER", "PRICE DECIMAL", "CREATED TIMESTAMP", "SHIPPED BOOLEAN",
          "SCORE DOUBLE"), types);
      assertEquals(Types.BOOLEAN, md.getColumnType(7));
      assertTrue(rs.next());
      // NUMERIC without precision keeps every digit; TIMESTAMP(3) its milliseconds.
      assertEquals(new BigDecimal("7.0007"), rs.getBigDecimal("PRICE"));
      assertEquals("2024-03-01 00:06:59.123", rs.getTimestamp("CREATED").toString());
      assertEquals(0.875, rs.getDouble("SCORE"));
    }
  }

  @Test void numericAndTimestampExpressionsPushedOrNot() throws SQLException {
    assertSameUnordered("SELECT \"Item Id\", price * 2, created FROM \"Order Items\""
            + " WHERE price > 50.5 AND shipped AND created < TIMESTAMP '2024-03-01 03:00:00'",
        "SELECT \"Item Id\", PRICE * 2, CREATED FROM ORDER_ITEMS"
            + " WHERE PRICE > 50.5 AND SHIPPED AND CREATED < TIMESTAMP '2024-03-01 03:00:00'");
    assertSameUnordered("SELECT shipped, COUNT(*), SUM(price), AVG(score), MIN(created)"
            + " FROM \"Order Items\" GROUP BY shipped",
        "SELECT SHIPPED, COUNT(*), SUM(PRICE), AVG(SCORE), MIN(CREATED) FROM ORDER_ITEMS"
            + " GROUP BY SHIPPED");
  }

  @Test void parametersAreBoundAsTheColumnsType() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT COUNT(*) FROM ORDER_ITEMS WHERE QTY = ? AND PRICE > ? AND \"select\" = ?"
            .replace("\"select\"", "\"SELECT\""))) {
      // Strings for an INTEGER and a NUMERIC column: PostgreSQL refuses them as text.
      p.setString(1, "3");
      p.setString(2, "10");
      p.setString(3, "cherry");
      assertEquals(fixture.oracleRows("SELECT COUNT(*) FROM \"Order Items\""
              + " WHERE qty = 3 AND price > 10 AND \"select\" = 'cherry'"), rows(p));
      p.setInt(1, 4);
      p.setBigDecimal(2, BigDecimal.ONE);
      p.setString(3, "Zoo");
      assertEquals(fixture.oracleRows("SELECT COUNT(*) FROM \"Order Items\""
              + " WHERE qty = 4 AND price > 1 AND \"select\" = 'Zoo'"), rows(p));
    }
  }

  @Test void textSortsRunAboveTheShardsInCodePointOrder() throws SQLException {
    final String sql = "SELECT \"SELECT\", \"Item Id\" FROM ORDER_ITEMS"
        + " ORDER BY \"SELECT\" DESC, \"Item Id\" LIMIT 25";
    final String plan = PlanTest.explain(connection, sql);
    assertTrue(plan.contains("EnumerableSort"), plan);
    assertFalse(plan.contains("merge=["), plan);
    // Code-point order, as Calcite compares strings: upper case before lower case, accented
    // letters last. The oracle sorts the same way only under the "C" collation.
    assertEquals(fixture.oracleRows("SELECT \"select\", \"Item Id\" FROM \"Order Items\""
            + " ORDER BY \"select\" COLLATE \"C\" DESC, \"Item Id\" LIMIT 25"),
        rows(connection.prepareStatement(sql)));
    // Numbers still merge sorted streams.
    assertTrue(PlanTest.explain(connection,
        "SELECT \"Item Id\" FROM ORDER_ITEMS ORDER BY PRICE DESC LIMIT 5").contains("merge=["));
    assertSame("SELECT \"Item Id\", price FROM \"Order Items\""
            + " ORDER BY price DESC NULLS LAST, \"Item Id\" LIMIT 5",
        "SELECT \"Item Id\", PRICE FROM ORDER_ITEMS ORDER BY PRICE DESC NULLS LAST, \"Item Id\""
            + " LIMIT 5");
  }

  private void assertSame(String oracleSql, String sql) throws SQLException {
    fixture.shards().resetCounters();
    final List<String> expected = fixture.oracleRows(oracleSql);
    assertFalse(expected.isEmpty(), oracleSql);
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      assertEquals(expected, rows(p), sql);
    }
  }

  private void assertSameUnordered(String oracleSql, String sql) throws SQLException {
    final List<String> expected = new ArrayList<>(fixture.oracleRows(oracleSql));
    assertFalse(expected.isEmpty(), oracleSql);
    try (PreparedStatement p = connection.prepareStatement(sql)) {
      final List<String> actual = new ArrayList<>(rows(p));
      expected.sort(null);
      actual.sort(null);
      assertEquals(expected, actual, sql);
    }
  }

  private static List<String> rows(PreparedStatement p) throws SQLException {
    try (ResultSet rs = p.executeQuery()) {
      return ShardFixture.rows(rs);
    }
  }
}
