package io.shardset.calcite;

import io.shardset.testing.ShardFixture;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Query helpers for tests with their own fixture (rather than {@link SalesDataTestBase}). */
final class ShardQueries {
  private ShardQueries() {
  }

  /** The rows of a query, each as a canonical string. */
  static List<String> rows(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return ShardFixture.rows(rs);
    }
  }

  /** The rows in sorted order, for comparing results whose order SQL leaves open. */
  static List<String> sorted(List<String> rows) {
    final List<String> copy = new ArrayList<>(rows);
    Collections.sort(copy);
    return copy;
  }

  /** Runs a statement to the end and returns the shards that received a query. */
  static Set<String> reached(ShardFixture fixture, PreparedStatement p) throws SQLException {
    fixture.shards().resetCounters();
    try (ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
    return new TreeSet<>(fixture.shardsReached());
  }

  /** The set of these shard names, which may repeat. */
  static Set<String> shards(String... names) {
    return new TreeSet<>(Arrays.asList(names));
  }
}
