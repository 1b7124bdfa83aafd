package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.testing.ShardFixture;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/** Opens the connections that tests compare, and reads their answers in a comparable form. */
final class Answers {
  private Answers() {
  }

  /** A {@code jdbc:shardset:} connection (with its plan cache) on an inline model. */
  static Connection connectShardSet(String model) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("model", "inline:" + model);
    return DriverManager.getConnection(ShardSetDriver.CONNECT_STRING_PREFIX, info);
  }

  /** The rows of a statement, each as a canonical string, sorted. */
  static List<String> sortedRows(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return sorted(ShardFixture.rows(rs));
    }
  }

  /** The rows in sorted order, for comparing results whose order SQL leaves open. */
  static List<String> sorted(List<String> rows) {
    final List<String> copy = new ArrayList<>(rows);
    Collections.sort(copy);
    return copy;
  }
}
