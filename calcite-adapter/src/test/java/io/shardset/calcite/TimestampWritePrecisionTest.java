package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Timestamps written through ShardSet keep their microseconds (and what the shard's database
 * keeps of nanoseconds): each way of writing one (literals, parameters bound by
 * {@code setTimestamp}, {@code setObject(LocalDateTime)} and {@code setString}, batches,
 * routed and pushed UPDATEs, an UPDATE that moves the row) runs through ShardSet and, as the
 * database's own statement, on an unsharded copy; the shards then hold what the copy holds,
 * read with plain JDBC. Calcite's runtime carries a timestamp as milliseconds, so before
 * this a value {@code ...10:00:00.123456} was stored as {@code ...10:00:00.123}. H2 here;
 * subclasses run on PostgreSQL and MariaDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimestampWritePrecisionTest {
  /** Edge values: before the epoch, a microsecond after it and before a second, a leap day,
   * milliseconds only, and random microseconds. */
  static final List<LocalDateTime> VALUES = values();

  private ShardFixture fixture;
  private Connection shardSet;

  Backend backend() {
    return Backend.H2;
  }

  /** The column type: MariaDB's TIMESTAMP converts time zones and stops in 2038. */
  String timestampType() {
    return "TIMESTAMP(6)";
  }

  private static List<LocalDateTime> values() {
    final List<LocalDateTime> values = new ArrayList<>(List.of(
        LocalDateTime.parse("2024-01-31T10:00:00.123456"),
        LocalDateTime.parse("1969-12-31T23:59:59.999999"),
        LocalDateTime.parse("1970-01-01T00:00:00.000001"),
        LocalDateTime.parse("1900-01-01T00:00:00.000001"),
        LocalDateTime.parse("2000-02-29T12:00:00.999999"),
        LocalDateTime.parse("2037-12-31T23:59:59.5"),
        LocalDateTime.parse("2024-06-01T00:00:00")));
    final SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 5; i++) {
      values.add(LocalDateTime.of(1950 + random.nextInt(100), 1 + random.nextInt(12),
          1 + random.nextInt(28), random.nextInt(24), random.nextInt(60), random.nextInt(60),
          random.nextInt(1_000_000) * 1000));
    }
    return List.copyOf(values);
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), 4, "CREATE TABLE T (ID INTEGER PRIMARY KEY, TS "
        + timestampType() + ", N VARCHAR(10))");
    shardSet = Connector.SHARDSET.open(fixture.model("\"tables\": [{\"name\": \"T\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]"));
  }

  @AfterAll void tearDown() throws SQLException {
    if (shardSet != null) {
      shardSet.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  /** A way of writing the values, run on ShardSet's connection and on the copy's. */
  @FunctionalInterface
  interface Writes {
    void run(Connection connection, boolean isShardSet) throws SQLException;
  }

  /** A named way of writing the values. */
  record Form(String name, Writes writes) {
    @Override public String toString() {
      return name;
    }
  }

  static List<Form> forms() {
    return List.of(
        new Form("literal INSERT, one row each", (c, s) -> {
          try (Statement statement = c.createStatement()) {
            for (int i = 0; i < VALUES.size(); i++) {
              statement.executeUpdate("INSERT INTO T VALUES (" + i + ", " + literal(i)
                  + ", 'lit')");
            }
          }
        }),
        new Form("literal INSERT, rows together, columns reordered", (c, s) -> {
          final List<String> rows = new ArrayList<>();
          for (int i = 0; i < VALUES.size(); i++) {
            rows.add("(" + literal(i) + ", " + i + ")");
          }
          execute(c, "INSERT INTO T (TS, ID) VALUES " + String.join(", ", rows));
        }),
        new Form("setTimestamp", (c, s) -> insertEach(c, (p, i) ->
            p.setTimestamp(2, Timestamp.valueOf(VALUES.get(i))))),
        new Form("setObject(LocalDateTime)", (c, s) -> insertEach(c, (p, i) ->
            p.setObject(2, VALUES.get(i)))),
        new Form("setObject(Timestamp, TIMESTAMP)", (c, s) -> insertEach(c, (p, i) ->
            p.setObject(2, Timestamp.valueOf(VALUES.get(i)), Types.TIMESTAMP))),
        new Form("setObject(LocalDateTime) with nanoseconds", (c, s) -> insertEach(c, (p, i) ->
            p.setObject(2, VALUES.get(i).plusNanos(499 + 200 * i)))),
        new Form("setString", (c, s) -> insertEach(c, (p, i) -> {
          if (s) {
            p.setString(2, Timestamp.valueOf(VALUES.get(i)).toString());
          } else {
            p.setObject(2, VALUES.get(i)); // PostgreSQL's driver sends text as VARCHAR
          }
        })),
        new Form("setTimestamp, a batch", (c, s) -> {
          try (PreparedStatement p = c.prepareStatement("INSERT INTO T (ID, TS) VALUES (?, ?)")) {
            for (int i = 0; i < VALUES.size(); i++) {
              p.setInt(1, i);
              p.setTimestamp(2, Timestamp.valueOf(VALUES.get(i)));
              p.addBatch();
            }
            p.executeBatch();
          }
        }),
        new Form("parameters, two rows a statement", (c, s) -> {
          try (PreparedStatement p = c.prepareStatement(
              "INSERT INTO T VALUES (?, ?, 'two'), (?, ?, 'two')")) {
            for (int i = 0; i + 1 < VALUES.size(); i += 2) {
              p.setInt(1, i);
              p.setTimestamp(2, Timestamp.valueOf(VALUES.get(i)));
              p.setInt(3, i + 1);
              p.setObject(4, VALUES.get(i + 1));
              p.executeUpdate();
            }
          }
        }),
        new Form("UPDATE SET TS = ? by key", (c, s) -> {
          insertPlain(c);
          try (PreparedStatement p = c.prepareStatement("UPDATE T SET TS = ? WHERE ID = ?")) {
            for (int i = 0; i < VALUES.size(); i++) {
              p.setTimestamp(1, Timestamp.valueOf(VALUES.get(i)));
              p.setInt(2, i);
              p.executeUpdate();
            }
          }
        }),
        new Form("UPDATE SET TS = literal, every shard", (c, s) -> {
          insertPlain(c);
          execute(c, "UPDATE T SET TS = " + literal(0) + ", N = 'all' WHERE N = 'plain'");
        }),
        new Form("UPDATE moving the row, its timestamp kept", (c, s) -> {
          insertEach(c, (p, i) -> p.setObject(2, VALUES.get(i)));
          execute(c, "UPDATE T SET ID = ID + 1000, N = 'moved'");
        }),
        new Form("INSERT ... SELECT", (c, s) -> {
          insertEach(c, (p, i) -> p.setObject(2, VALUES.get(i)));
          execute(c, "INSERT INTO T (ID, TS, N) SELECT ID + 1000, TS, 'copy' FROM T");
          execute(c, "DELETE FROM T WHERE ID < 1000");
        }),
        new Form("UPDATE moving the row to another key", (c, s) -> {
          insertPlain(c);
          try (PreparedStatement p = c.prepareStatement(
              "UPDATE T SET ID = ID + 1000, TS = ? WHERE ID = ?")) {
            for (int i = 0; i < VALUES.size(); i++) {
              p.setTimestamp(1, Timestamp.valueOf(VALUES.get(i)));
              p.setInt(2, i);
              p.executeUpdate();
            }
          }
        }));
  }

  private static String literal(int i) {
    return "TIMESTAMP '" + Timestamp.valueOf(VALUES.get(i)) + "'";
  }

  /** Sets parameter 2 of row {@code i}. */
  @FunctionalInterface
  interface Binding {
    void bind(PreparedStatement statement, int i) throws SQLException;
  }

  private static void insertEach(Connection c, Binding binding) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("INSERT INTO T VALUES (?, ?, 'param')")) {
      for (int i = 0; i < VALUES.size(); i++) {
        p.setInt(1, i);
        binding.bind(p, i);
        p.executeUpdate();
      }
    }
  }

  private static void insertPlain(Connection c) throws SQLException {
    for (int i = 0; i < VALUES.size(); i++) {
      execute(c, "INSERT INTO T VALUES (" + i + ", TIMESTAMP '2001-01-01 00:00:00', 'plain')");
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement statement = c.createStatement()) {
      statement.executeUpdate(sql);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void shardsHoldWhatTheDatabaseHolds(Form form) throws SQLException {
    fixture.shards().executeOnAll("DELETE FROM T");
    execute(fixture.oracle(), "DELETE FROM T");
    form.writes().run(shardSet, true);
    form.writes().run(fixture.oracle(), false);
    final TreeMap<Integer, String> expected = rows(List.of(fixture.oracle()));
    assertEquals(VALUES.size(), expected.size());
    assertEquals(expected, onShards(), form.name());
  }

  /** Text that is no timestamp fails with 22007 and names the parameter; nothing is written. */
  @Test void textThatIsNoTimestampIsRefused() throws SQLException {
    fixture.shards().executeOnAll("DELETE FROM T");
    try (PreparedStatement p = shardSet.prepareStatement("INSERT INTO T VALUES (?, ?, 'x')")) {
      p.setInt(1, 1);
      p.setString(2, "2024-02-30 10:00:00");
      final SQLException e = assertThrows(SQLException.class, p::executeUpdate);
      assertEquals("22007", e.getSQLState());
      assertEquals("parameter 2: '2024-02-30 10:00:00' is not a valid TIMESTAMP",
          e.getMessage());
    }
    assertEquals(new TreeMap<>(), onShards());
  }

  private TreeMap<Integer, String> onShards() throws SQLException {
    final List<Connection> shards = new ArrayList<>();
    try {
      for (String shard : fixture.shards().names()) {
        shards.add(fixture.shards().endpoint(shard).connect());
      }
      return rows(shards);
    } finally {
      for (Connection c : shards) {
        c.close();
      }
    }
  }

  /** Each row's ID and timestamp (to the nanosecond), from all the connections. */
  private static TreeMap<Integer, String> rows(List<Connection> connections)
      throws SQLException {
    final TreeMap<Integer, String> rows = new TreeMap<>();
    for (Connection c : connections) {
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT ID, TS FROM T")) {
        while (rs.next()) {
          rows.put(rs.getInt(1), String.valueOf(rs.getObject(2, LocalDateTime.class)));
        }
      }
    }
    return rows;
  }
}
