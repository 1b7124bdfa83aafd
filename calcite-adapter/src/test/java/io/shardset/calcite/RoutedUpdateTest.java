package io.shardset.calcite;

import io.shardset.testing.Connector;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;
import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * UPDATE of the columns that place rows of composite and lookup tables, on four H2 shards:
 * a changed partition column moves the row to its new set's shardspace, a changed lookup key
 * to the shard the directory names; a key the directory does not know is refused, and
 * nothing of its statement is changed.
 */
class RoutedUpdateTest extends RoutedTables {
  @BeforeEach void fill() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM ACCOUNTS");
      s.executeUpdate("DELETE FROM TENANT_DOCS");
      s.executeUpdate("INSERT INTO ACCOUNTS VALUES (1, 'gld', 10), (2, 'slv', 20),"
          + " (3, NULL, 30)");
      s.executeUpdate("INSERT INTO TENANT_DOCS VALUES (1, 1, 'one'), (2, 6, 'six')");
    }
  }

  private static String fast(long id) {
    return "s" + shardOfLong(id, 240, 2);
  }

  private static String slow(long id) {
    return "s" + (2 + shardOfLong(id, 240, 2));
  }

  @Test void changedPartitionColumnMovesTheRowToItsSetsShardspace() throws SQLException {
    assertEquals(sorted(List.of(fast(1) + ": 1, gld, 10", slow(2) + ": 2, slv, 20",
        slow(3) + ": 3, NULL, 30")), placed("ACCOUNTS"));
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(2, s.executeUpdate("UPDATE ACCOUNTS SET CLASS = CASE CLASS WHEN 'gld'"
          + " THEN 'slv' ELSE 'gld' END WHERE CUST_ID IN (1, 2)"));
      assertEquals(1, s.executeUpdate("UPDATE ACCOUNTS SET BALANCE = 31 WHERE CUST_ID = 3"));
    }
    assertEquals(sorted(List.of(slow(1) + ": 1, slv, 10", fast(2) + ": 2, gld, 20",
        slow(3) + ": 3, NULL, 31")), placed("ACCOUNTS"));
  }

  @Test void changedLookupKeyMovesTheRowWhereTheDirectorySays() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "UPDATE TENANT_DOCS SET TENANT_ID = 99 WHERE DOC_ID > 0"));
      assertEquals("table S.TENANT_DOCS: no shard accepts key TENANT_ID = 99",
          InsertTestBase.message(e));
      assertEquals(List.of("s1: 1, 1, one", "s2: 2, 6, six"), placed("TENANT_DOCS"));
      assertEquals(2, s.executeUpdate("UPDATE TENANT_DOCS SET TENANT_ID = TENANT_ID + 2"));
      assertEquals(1, s.executeUpdate("UPDATE TENANT_DOCS SET TITLE = 'eight'"
          + " WHERE TENANT_ID = 8"));
    }
    assertEquals(List.of("s0: 2, 8, eight", "s3: 1, 3, one"), placed("TENANT_DOCS"));
  }
}
