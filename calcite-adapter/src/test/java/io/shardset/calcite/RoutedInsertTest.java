package io.shardset.calcite;

import io.shardset.testing.Connector;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.shardset.testing.ExpectedPlacement.shardOfLong;
import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * INSERT into composite and lookup tables on four H2 shards: rows land on the shard of their
 * set's shardspace, or the one the directory names; a key the directory does not know is
 * refused, and nothing of its statement is written.
 */
class RoutedInsertTest extends RoutedTables {
  @Test void compositeRowsGoToTheirSetsShardspace() throws SQLException {
    final List<String> expected = new ArrayList<>();
    final StringBuilder sql = new StringBuilder("INSERT INTO ACCOUNTS VALUES ");
    final String[] classes = {"gld", "slv", null};
    for (long id = 1; id <= 30; id++) {
      final String klass = classes[(int) (id % classes.length)];
      sql.append(id == 1 ? "" : ", ").append('(').append(id).append(", ")
          .append(klass == null ? "NULL" : "'" + klass + "'").append(", ").append(id * 10)
          .append(')');
      final String shard = "gld".equals(klass) ? "s" + shardOfLong(id, 240, 2)
          : "s" + (2 + shardOfLong(id, 240, 2));
      expected.add(shard + ": " + id + ", " + (klass == null ? "NULL" : klass) + ", "
          + id * 10);
    }
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      assertEquals(30, s.executeUpdate(sql.toString()));
    }
    assertEquals(sorted(expected), placed("ACCOUNTS"));
  }

  @Test void lookupRowsGoWhereTheDirectorySays() throws SQLException {
    try (Connection c = Connector.SHARDSET.open(model); Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "INSERT INTO TENANT_DOCS VALUES (1, 1, 'one'), (2, 99, 'unknown')"));
      assertEquals("table S.TENANT_DOCS: no shard accepts key TENANT_ID = 99",
          InsertTestBase.message(e));
      assertEquals(List.of(), placed("TENANT_DOCS"));
      assertEquals(3, s.executeUpdate("INSERT INTO TENANT_DOCS VALUES (1, 1, 'one'),"
          + " (2, 6, 'six'), (3, 8, 'eight')"));
    }
    assertEquals(List.of("s0: 3, 8, eight", "s1: 1, 1, one", "s2: 2, 6, six"),
        placed("TENANT_DOCS"));
  }
}
