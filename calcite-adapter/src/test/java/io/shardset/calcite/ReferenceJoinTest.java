package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Joins of reference tables that are not on the same shards. */
class ReferenceJoinTest {
  private static final String[] DDL = {
      "CREATE TABLE COLORS (ID INTEGER PRIMARY KEY, NAME VARCHAR(10))",
      "CREATE TABLE SIZES (ID INTEGER PRIMARY KEY, LABEL VARCHAR(10))"};
  private static final String TABLES = "\"tables\": ["
      + "{\"name\": \"COLORS\", \"method\": \"duplicated\"},"
      + "{\"name\": \"SIZES\", \"method\": \"duplicated\", \"shards\": [\"s0\", \"s1\"]}]";

  @Test void joinOfReferenceTablesRunsOnAShardHoldingBoth() throws SQLException {
    try (ShardFixture fixture = ShardFixture.h2(4, DDL);
         Connection connection = ShardFixture.connect(fixture.model(TABLES))) {
      fixture.load(connection, "COLORS", List.of(new Object[] {1, "red"},
          new Object[] {2, "green"}, new Object[] {3, "blue"}));
      fixture.load(connection, "SIZES", List.of(new Object[] {1, "S"}, new Object[] {3, "L"}));
      final String sql = "SELECT c.NAME, s.LABEL FROM COLORS c JOIN SIZES s ON c.ID = s.ID";
      final String plan = PlanTest.explain(connection, sql);
      assertTrue(plan.startsWith("EnumerableShardScan(table=[[S, COLORS], [S, SIZES]],"
          + " shards=[1 of 4: s0]"), plan);
      fixture.shards().resetCounters();
      try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
        final List<String> rows = new ArrayList<>(ShardFixture.rows(rs));
        Collections.sort(rows);
        assertEquals(List.of("blue, L", "red, S"), rows);
      }
      assertEquals(1, fixture.shards().statementsExecuted());
    }
  }
}
