package io.shardset.clients;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the tests of a BI tool's connect-time metadata calls share: the sharded model, served
 * embedded and by a server, the three ways a tool reaches it, and readers of metadata results
 * that close them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConnectSequenceTestBase {
  /** The JDBC driver a tool is configured with. */
  enum Via {
    /** {@code jdbc:shardset:}, in the tool's process. */
    EMBEDDED,
    /** {@code jdbc:shardset:remote:} to the server. */
    SHARDSET_REMOTE,
    /** Avatica's own {@code jdbc:avatica:remote:} to the server. */
    AVATICA_REMOTE
  }

  /** ORDERS' columns as getColumns lists them: name, DATA_TYPE, TYPE_NAME, NULLABLE. */
  static final List<String> ORDERS_COLUMNS = List.of(
      "ID|" + Types.BIGINT + "|BIGINT|0", "CUSTOMER_ID|" + Types.BIGINT + "|BIGINT|0",
      "ORDERED_AT|" + Types.TIMESTAMP + "|TIMESTAMP|0", "TOTAL|" + Types.DECIMAL + "|DECIMAL|0",
      "STATUS|" + Types.VARCHAR + "|VARCHAR|1");

  ShardedFixture fixture;

  @BeforeAll void createModel(@TempDir Path folder) throws Exception {
    fixture = ShardedFixture.create(folder);
  }

  @AfterAll void close() throws SQLException {
    fixture.close();
  }

  Connection connect(Via via) throws SQLException {
    final String url = switch (via) {
    case EMBEDDED -> fixture.embeddedUrl();
    case SHARDSET_REMOTE -> fixture.remoteUrl();
    case AVATICA_REMOTE -> fixture.avaticaUrl();
    };
    return DriverManager.getConnection(url);
  }

  /** The given columns of every row, joined by "|"; closes the result. */
  static List<String> rows(ResultSet rs, String... columns) throws SQLException {
    try (rs) {
      final List<String> rows = new ArrayList<>();
      while (rs.next()) {
        final StringJoiner row = new StringJoiner("|");
        for (String column : columns) {
          row.add(String.valueOf(rs.getObject(column)));
        }
        rows.add(row.toString());
      }
      return rows;
    }
  }

  /** The number of rows; closes the result. */
  static int count(ResultSet rs) throws SQLException {
    try (rs) {
      int n = 0;
      while (rs.next()) {
        n++;
      }
      return n;
    }
  }

  /** Checks the columns getColumns gives for ORDERS, as every tool reads them. */
  static void assertOrdersColumns(ResultSet rs) throws SQLException {
    assertEquals(ORDERS_COLUMNS, rows(rs, "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "NULLABLE"));
  }

  /** Checks that getTypeInfo lists the types the tables use, each once. */
  static void assertTypeInfo(ResultSet rs) throws SQLException {
    final List<String> types = rows(rs, "TYPE_NAME", "DATA_TYPE");
    for (String type : List.of("BIGINT|" + Types.BIGINT, "DECIMAL|" + Types.DECIMAL,
        "VARCHAR|" + Types.VARCHAR, "CHAR|" + Types.CHAR, "DATE|" + Types.DATE,
        "TIMESTAMP|" + Types.TIMESTAMP)) {
      assertTrue(types.contains(type), () -> type + " missing from " + types);
    }
    assertEquals(types.size(), types.stream().distinct().count(), types::toString);
  }
}
