package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the aggregate above the shards combines, and the case mapping of literals, agree with
 * one unsharded database of the same product: signed zeros group as one value, NaN is the
 * largest double, text is ordered as the shards order it (code points on PostgreSQL's "C"
 * and MariaDB's binary collations, UTF-16 units on H2), and {@code UPPER('ß')} is what the
 * shard's database makes of it. H2 here; subclasses run on PostgreSQL and MariaDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MergedAggregatesTest {
  private ShardFixture fixture;
  private Connection connection;

  Backend backend() {
    return Backend.H2;
  }

  /** Whether the database stores NaN and infinities in a DOUBLE column (MariaDB does not). */
  boolean storesNan() {
    return true;
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), 4,
        "CREATE TABLE M (ID INTEGER PRIMARY KEY, S VARCHAR(20), D DOUBLE PRECISION)");
    final String model = fixture.model("\"tables\": [{\"name\": \"M\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]");
    final String[] texts = {"a", "\uFF5E", "\uD83D\uDE00", "\u00DF", "SS", "ss", "\uFB00",
        "\u0130", "i", "z\uD83D\uDE00", "z\uFF5E", null};
    final List<Double> doubles = new ArrayList<>(List.of(-0.0, 0.0, 1.5, -2.5));
    if (storesNan()) {
      doubles.addAll(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
    }
    final List<Object[]> rows = new ArrayList<>();
    for (int id = 0; id < 48; id++) {
      rows.add(new Object[] {id, texts[id % texts.length],
          id % 9 == 8 ? null : doubles.get(id % doubles.size())});
    }
    try (Connection loading = ShardFixture.connect(model)) {
      fixture.load(loading, "M", rows);
    }
    connection = ShardFixture.connect(model);
  }

  @AfterAll void tearDown() throws SQLException {
    if (connection != null) {
      connection.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT MAX(S), MIN(S) FROM M",
      "SELECT MAX(S) FROM M WHERE ID NOT IN (9, 21, 33, 45)",
      "SELECT MAX(D), MIN(D) FROM M",
      "SELECT MAX(D) FROM M WHERE D < 10",
      "SELECT D, COUNT(*) FROM M GROUP BY D",
      "SELECT COUNT(*) FROM (SELECT D FROM M GROUP BY D) AS G",
      "SELECT ID FROM M WHERE UPPER(S) = UPPER('\u00DF')",
      "SELECT ID FROM M WHERE LOWER(S) = LOWER('SS')",
      "SELECT ID FROM M WHERE UPPER(S) = UPPER('\u00DF') OR UPPER(S) = UPPER('i')",
      "SELECT ID FROM M WHERE UPPER(S) = 'SS'"})
  void sameAsUnsharded(String sql) throws SQLException {
    assertEquals(ShardFixture.sorted(rows(fixture.oracle(), sql)),
        ShardFixture.sorted(rows(connection, sql)), sql);
  }

  /** Rows with doubles written so that NaN, infinities and the sign of zero show. */
  private static List<String> rows(Connection c, String sql) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final List<String> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          final Object value = rs.getObject(i);
          row.add(value instanceof Number n && !(value instanceof Integer || value instanceof Long)
              ? String.valueOf(n.doubleValue() + 0.0) : String.valueOf(value));
        }
        rows.add(String.join(", ", row));
      }
    }
    return rows;
  }
}
