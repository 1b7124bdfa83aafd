package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link WriteTable} on in-memory H2 databases. */
class WriteTableTest {
  @Test void anInsertHasOneRowOfFivePlaceholdersPerRow() {
    assertEquals("INSERT INTO ORDERS_W (ORDER_ID, CUSTOMER_ID, ORDER_DATE, STATUS, TOTAL)"
        + " VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)", WriteTable.insert(2));
    assertEquals(20, WriteTable.insert(4).chars().filter(c -> c == '?').count());
    assertThrows(IllegalArgumentException.class, () -> WriteTable.insert(0));
  }

  @Test void recreatingDropsAnEarlierRunsRowsAndClearingEmptiesEveryShard() throws Exception {
    try (Connection s0 = DriverManager.getConnection("jdbc:h2:mem:write-table-s0", "sa", "");
         Connection s1 = DriverManager.getConnection("jdbc:h2:mem:write-table-s1", "sa", "")) {
      for (Connection shard : List.of(s0, s1)) {
        run(shard, WriteTable.recreate());
        run(shard, List.of("INSERT INTO ORDERS_W VALUES (1, 2, DATE '2020-01-01', 'NEW', 1.5)"));
        assertEquals(1, count(shard));
        // A second run finds the first run's table, and starts empty.
        run(shard, WriteTable.recreate());
        assertEquals(0, count(shard));
        run(shard, List.of("INSERT INTO ORDERS_W VALUES (1, 2, DATE '2020-01-01', 'NEW', 1.5)"));
      }
      WriteTable.clear(List.of(s0, s1));
      assertEquals(0, count(s0));
      assertEquals(0, count(s1));
      // The key is there: a second row with the same ORDER_ID is refused.
      run(s0, List.of("INSERT INTO ORDERS_W VALUES (1, 2, DATE '2020-01-01', 'NEW', 1.5)"));
      assertThrows(SQLException.class, () -> run(s0,
          List.of("INSERT INTO ORDERS_W VALUES (1, 3, DATE '2020-01-01', 'NEW', 1.5)")));
    }
  }

  @Test void aShardThatCannotBeClearedIsNamed() throws Exception {
    try (Connection s0 = DriverManager.getConnection("jdbc:h2:mem:write-table-none", "sa", "")) {
      final SQLException e =
          assertThrows(SQLException.class, () -> WriteTable.clear(List.of(s0)));
      assertTrue(e.getMessage().startsWith("cannot run TRUNCATE TABLE ORDERS_W on shard s0"),
          e.getMessage());
    }
  }

  private static void run(Connection c, List<String> statements) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  private static long count(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ORDERS_W")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
