package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Timestamp literals reach the shards with their microseconds, and columns keep the precision
 * the shards declare, so comparisons finer than a second or a millisecond find the rows the
 * unsharded database finds. H2 here; subclasses run on PostgreSQL and MariaDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimestampPrecisionTest {
  private ShardFixture fixture;
  private final List<Connection> connections = new ArrayList<>();

  Backend backend() {
    return Backend.H2;
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), 4,
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, TS " + timestampType() + ")");
    final String model = fixture.model("\"tables\": [{\"name\": \"T\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]");
    final LocalDateTime noon = LocalDateTime.of(2000, 1, 1, 12, 0);
    final List<Object[]> rows = List.of(
        new Object[] {1, noon}, new Object[] {2, noon.plusNanos(1_000)},
        new Object[] {3, noon.plusNanos(500_000_000)},
        new Object[] {4, noon.plusNanos(999_999_000)}, new Object[] {5, noon.plusSeconds(1)},
        new Object[] {6, noon.plusNanos(1_000_000)});
    try (Connection loading = ShardFixture.connect(model)) {
      fixture.load(loading, "T", rows);
    }
    connections.add(Connector.SHARDSET.open(model));
    final Properties info = Connector.info(model);
    info.setProperty("typeSystem", ShardTypeSystem.class.getName() + "#INSTANCE");
    connections.add(DriverManager.getConnection("jdbc:calcite:", info));
  }

  /** The column type: MariaDB's TIMESTAMP converts time zones and stops in 2038. */
  String timestampType() {
    return "TIMESTAMP(6)";
  }

  @AfterAll void tearDown() throws SQLException {
    for (Connection c : connections) {
      c.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT ID FROM T WHERE TS = TIMESTAMP '2000-01-01 12:00:00.000001'",
      "SELECT ID FROM T WHERE TS = TIMESTAMP '2000-01-01 12:00:00'",
      "SELECT ID FROM T WHERE TS = TIMESTAMP '2000-01-01 12:00:00.5'",
      "SELECT ID FROM T WHERE TS = TIMESTAMP '2000-01-01 12:00:00.001'",
      "SELECT ID FROM T WHERE TS > TIMESTAMP '2000-01-01 12:00:00.999998'",
      "SELECT ID FROM T WHERE TS < TIMESTAMP '2000-01-01 12:00:00.000001'",
      "SELECT ID FROM T WHERE TS BETWEEN TIMESTAMP '2000-01-01 12:00:00.000001'"
          + " AND TIMESTAMP '2000-01-01 12:00:00.999999'",
      "SELECT COUNT(*) FROM T WHERE TS <= TIMESTAMP '2000-01-01 12:00:00.5'",
      "SELECT TS FROM T WHERE ID IN (1, 3, 5, 6)"})
  void sameRowsAsUnsharded(String sql) throws SQLException {
    final List<String> expected = ShardFixture.sorted(fixture.oracleRows(sql));
    for (Connection c : connections) {
      assertEquals(expected, ShardFixture.sorted(ShardFixture.rows(c, sql)), sql);
    }
  }

  /** Rows 1 and 2 differ by a microsecond, which values above the shards do not carry (they
   * are milliseconds there): the orders asked for here do not depend on it. */
  @ParameterizedTest
  @ValueSource(strings = {"SELECT ID FROM T ORDER BY TS DESC",
      "SELECT ID FROM T WHERE ID <> 1 ORDER BY TS LIMIT 3"})
  void sameOrderAsUnsharded(String sql) throws SQLException {
    for (Connection c : connections) {
      assertEquals(fixture.oracleRows(sql), ShardFixture.rows(c, sql), sql);
    }
  }
}
