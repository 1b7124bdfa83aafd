package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

import static io.shardset.testing.ShardFixture.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statements as clients write them that Calcite's own driver refuses and
 * {@code jdbc:shardset:} runs: a statement ending in a semicolon, and a {@code ?} whose place
 * gives it no type (typed VARCHAR, as PostgreSQL types it text).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatementTextTest {
  private ShardFixture fixture;
  private Connection connection;

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.h2(2, "CREATE TABLE K (ID INTEGER PRIMARY KEY, S VARCHAR(20))");
    final String model = fixture.model("\"tables\": [{\"name\": \"K\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]");
    try (Connection loading = ShardFixture.connect(model)) {
      fixture.load(loading, "K", List.of(new Object[] {1, "one"}, new Object[] {2, "two"},
          new Object[] {3, "three"}));
    }
    connection = Connector.SHARDSET.open(model);
  }

  @AfterAll void tearDown() throws SQLException {
    connection.close();
    fixture.close();
  }

  @Test void aTrailingSemicolonEndsTheStatement() throws SQLException {
    assertEquals(List.of("two"), rows(connection, "SELECT S FROM K WHERE ID = 2;"));
    assertEquals(List.of("3"), rows(connection, "SELECT COUNT(*) FROM K ; ;\n "));
    try (PreparedStatement p = connection.prepareStatement("SELECT S FROM K WHERE ID = ?;")) {
      p.setInt(1, 3);
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(List.of("three"), rows(rs));
      }
    }
    final List<String> plan = rows(connection, "EXPLAIN PLAN FOR SELECT S FROM K WHERE ID = 1;");
    assertTrue(plan.get(0).contains("EnumerableShardScan"), plan::toString);
    try (Statement s = connection.createStatement()) {
      assertEquals(1, s.executeUpdate("UPDATE K SET S = 'uno' WHERE ID = 1;"));
    }
    assertEquals(List.of("uno"), rows(connection, "SELECT S FROM K WHERE ID = 1"));
  }

  @Test void twoStatementsAreStillRefused() {
    final SQLException e = assertThrows(SQLException.class,
        () -> rows(connection, "SELECT 1; SELECT 2;"));
    assertTrue(String.valueOf(e.getCause()).contains("parse failed"), e::toString);
  }

  @Test void aParameterWithoutATypeFromItsPlaceIsVarchar() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement("SELECT ?")) {
      assertEquals(Types.VARCHAR, p.getParameterMetaData().getParameterType(1));
      assertEquals(Types.VARCHAR, p.getMetaData().getColumnType(1));
      p.setString(1, "hello");
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(List.of("hello"), rows(rs));
      }
      p.setNull(1, Types.VARCHAR);
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(List.of("NULL"), rows(rs));
      }
      // A value of another type is converted to text, as a VARCHAR column's parameter is.
      p.setInt(1, 5);
      try (ResultSet rs = p.executeQuery()) {
        assertTrue(rs.next());
        assertEquals("5", rs.getString(1));
      }
    }
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT ID, ? AS TAG FROM K WHERE ? IS NULL OR ID = ? ORDER BY ID")) {
      p.setString(1, "t");
      p.setString(2, "x");
      p.setInt(3, 2);
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(List.of("2, t"), rows(rs));
      }
      p.setNull(2, Types.VARCHAR);
      try (ResultSet rs = p.executeQuery()) {
        assertEquals(List.of("1, t", "2, t", "3, t"), rows(rs));
      }
    }
  }

  @Test void aParameterTypedByItsPlaceKeepsItsType() throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT S FROM K WHERE ID = ? AND S = CAST(? AS VARCHAR(5)) AND ID < ? + 1")) {
      assertEquals(Types.INTEGER, p.getParameterMetaData().getParameterType(1));
      assertEquals(Types.VARCHAR, p.getParameterMetaData().getParameterType(2));
      assertEquals(5, p.getParameterMetaData().getPrecision(2));
      assertEquals(Types.INTEGER, p.getParameterMetaData().getParameterType(3));
    }
  }
}
