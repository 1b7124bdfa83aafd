package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.copy.CopyManager;
import org.postgresql.core.BaseConnection;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * COPY through the PostgreSQL port on PostgreSQL shards, against PostgreSQL's own on the same
 * data: psql's
 * {@code \copy} in and out in CSV and in the text format gives the same files as on one
 * PostgreSQL database, the rows land on their shards, a COPY with a bad row leaves none of its
 * rows, and pgJDBC's {@code CopyManager} streams thousands of rows in.
 */
class PgCopyTest {
  /** Rows with what COPY must escape or quote: delimiters, quotes, line breaks, NULLs. */
  private static final String CSV = "id,grp,name,price,ratio,qty,small,flag,sold_on,at_ts\n"
      + "1,1,plain,10.50,0.5,7,1,t,2024-01-31,2024-01-31 10:00:00.123\n"
      + "2,2,\"with, comma\",-3.00,1e-05,-9223372036854775808,-32768,f,1970-01-01,"
      + "1999-12-31 23:59:59\n"
      + "3,3,\"quote \"\" inside\",,,,,,,\n"
      + "4,4,\"line\nbreak\",0.00,-0.25,0,0,t,2000-02-29,2000-02-29 00:00:00\n"
      + "5,5,\"\",1.00,1,1,1,f,2020-01-01,2020-01-01 00:00:00\n"
      + "6,6,tab\there ✓ \\ back,2.00,2,2,2,t,2021-06-30,2021-06-30 12:30:00.5\n";
  private static PgServerFixture server;
  private static String reference;
  private static Path folder;

  @BeforeAll static void start() throws Exception {
    PostgresServer.require();
    // PostgreSQL shards, whose values (-0, say) are PostgreSQL's own, as on the reference.
    server = PgServerFixture.start(Backend.POSTGRES, 3, PgJdbcTest.TABLES, PgJdbcTest.DDL);
    reference = PostgresServer.createDatabases("pgcopy", 1).get(0);
    try (Connection c = postgresql(); Statement s = c.createStatement()) {
      s.execute(PgJdbcTest.DDL);
    }
    folder = Files.createTempDirectory("pg-copy");
    Files.writeString(folder.resolve("in.csv"), CSV, StandardCharsets.UTF_8);
  }

  @AfterAll static void stop() throws SQLException {
    server.close();
    PostgresServer.drop(List.of(reference));
  }

  @AfterEach void empty() throws SQLException {
    try (Connection c = server.embedded(); Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM ITEMS");
    }
    try (Connection c = postgresql(); Statement s = c.createStatement()) {
      s.executeUpdate("DELETE FROM ITEMS");
    }
  }

  private static Connection postgresql() throws SQLException {
    return DriverManager.getConnection(PostgresServer.url(reference), PostgresServer.USER, "");
  }

  /**
   * Runs psql's commands on ShardSet and on PostgreSQL, {@code {out}} in them a file of each
   * one's own ({@code out.shardset}, {@code out.postgresql} in the test's folder); returns
   * both runs.
   */
  private static List<Psql.Run> psql(String... commands) throws Exception {
    final Psql.Run shardSet = Psql.run(server.port(), "tester", null,
        arguments(commands, "shardset"));
    final String[] onPostgresql = arguments(commands, "postgresql");
    final String[] withDatabase = new String[onPostgresql.length + 2];
    withDatabase[0] = "-d";
    withDatabase[1] = reference;
    System.arraycopy(onPostgresql, 0, withDatabase, 2, onPostgresql.length);
    final Psql.Run postgresql = Psql.run(5432, PostgresServer.USER, null, withDatabase);
    assertEquals(0, shardSet.exitCode(), shardSet.err());
    assertEquals(0, postgresql.exitCode(), postgresql.err());
    return List.of(shardSet, postgresql);
  }

  private static String[] arguments(String[] commands, String target) {
    final String[] arguments = new String[commands.length * 2];
    for (int i = 0; i < commands.length; i++) {
      arguments[2 * i] = "-c";
      arguments[2 * i + 1] = commands[i].replace("{out}",
          folder.resolve("out." + target).toString());
    }
    return arguments;
  }

  /** What psql wrote to {@code {out}} on ShardSet, and on PostgreSQL. */
  private static List<String> written() throws Exception {
    return List.of(Files.readString(folder.resolve("out.shardset"), StandardCharsets.UTF_8),
        Files.readString(folder.resolve("out.postgresql"), StandardCharsets.UTF_8));
  }

  @ParameterizedTest @ValueSource(strings = {"(FORMAT csv, HEADER)", "CSV HEADER"})
  void csvInAndOutAsPostgresql(String options) throws Exception {
    final List<Psql.Run> runs = psql("\\copy items FROM '" + folder.resolve("in.csv") + "' "
        + options, "\\copy (SELECT * FROM items ORDER BY id) TO '{out}' " + options);
    // What the shards hold, to the microsecond.
    assertEquals(List.of("2024-01-31 10:00:00.123"),
        server.onShards("SELECT CAST(AT_TS AS VARCHAR(40)) FROM ITEMS WHERE ID = 1"));

    assertEquals(runs.get(1).out(), runs.get(0).out());
    assertEquals(written().get(1), written().get(0));
    assertEquals(6, server.onShards("SELECT ID FROM ITEMS").size());
  }

  @ParameterizedTest @ValueSource(strings = {"", "(FORMAT text)"})
  void theTextFormatInAndOutAsPostgresql(String options) throws Exception {
    psql("\\copy items FROM '" + folder.resolve("in.csv") + "' CSV HEADER",
        "\\copy (SELECT * FROM items ORDER BY id) TO '{out}' " + options);
    assertEquals(written().get(1), written().get(0));
    // And back in: the text format reads what it wrote.
    empty();
    psql("\\copy items FROM '{out}' " + options);
    try (Connection c = server.embedded(); Connection pg = postgresql()) {
      final String all = "SELECT * FROM ITEMS ORDER BY ID";
      assertEquals(ShardFixture.rows(pg, all), ShardFixture.rows(c, all));
    }
  }

  @ParameterizedTest @ValueSource(strings = {"bad value", "extra field"})
  void aCopyWithABadRowLeavesNoneOfItsRows(String what) throws Exception {
    final Path bad = folder.resolve("bad.csv");
    Files.writeString(bad, "10,1,a\n11,1,b\n" + (what.equals("bad value") ? "12,x,c\n"
        : "12,1,c,1,2,3,4,5\n") + "13,1,d\n", StandardCharsets.UTF_8);
    final Psql.Run run = Psql.run(server.port(), "tester", null, "-c",
        "\\copy items (id, grp, name) FROM '" + bad + "' CSV");
    assertEquals(1, run.exitCode(), run.err());
    assertTrue(run.err().contains("COPY line 3"), run.err());
    assertEquals(List.of(), server.onShards("SELECT ID FROM ITEMS"));
    // The session, and the server, go on.
    final Psql.Run after = Psql.run(server.port(), "tester", null, "-c",
        "SELECT count(*) FROM items");
    assertEquals("0", after.out());
  }

  @ParameterizedTest @ValueSource(ints = {1, 7_500})
  void pgjdbcsCopyManagerStreamsRowsIn(int count) throws Exception {
    final StringBuilder data = new StringBuilder();
    for (int id = 1; id <= count; id++) {
      data.append(id).append('\t').append(id % 7).append("\titem ").append(id).append('\n');
    }
    try (Connection pg = server.pg("")) {
      final CopyManager copy = new CopyManager(pg.unwrap(BaseConnection.class));
      assertEquals(count, copy.copyIn("COPY items (id, grp, name) FROM STDIN",
          new StringReader(data.toString())));
      final SQLException failed = assertThrows(SQLException.class,
          () -> copy.copyIn("COPY items (id, grp, name) FROM STDIN",
              new StringReader("900001\t1\tnew\n1\t1\tagain\n")));
      assertEquals("23505", failed.getSQLState(), failed.getMessage());
      // A client whose input fails mid-COPY sends CopyFail: nothing of it stays.
      final InputStream failing = new InputStream() {
        private final byte[] line = "900002\t1\tnew\n".getBytes(StandardCharsets.UTF_8);
        private int at;

        @Override public int read() throws IOException {
          if (at == line.length) {
            throw new IOException("the input failed");
          }
          return line[at++];
        }
      };
      assertThrows(Exception.class,
          () -> copy.copyIn("COPY items (id, grp, name) FROM STDIN", failing));
      try (Statement s = pg.createStatement()) {
        s.execute("SELECT 1");
      }
    }
    assertEquals(count, server.onShards("SELECT ID FROM ITEMS").size());
  }

  /** Timestamps finer than a millisecond are stored to the microsecond, in both formats and
   * through the extended protocol's bound parameters. */
  @Test void microsecondsAreStored() throws Exception {
    try (Connection pg = server.pg("")) {
      final CopyManager copy = new CopyManager(pg.unwrap(BaseConnection.class));
      copy.copyIn("COPY items (id, grp, at_ts) FROM STDIN",
          new StringReader("1\t1\t2024-01-31 10:00:00.123456\n"
              + "2\t1\t1969-12-31 23:59:59.999999\n"));
      copy.copyIn("COPY items (id, grp, at_ts) FROM STDIN (FORMAT csv)",
          new StringReader("3,1,2000-02-29 00:00:00.000001\n"));
      try (PreparedStatement insert = pg.prepareStatement(
          "INSERT INTO items (id, grp, at_ts) VALUES (?, 1, ?)")) {
        insert.setInt(1, 4);
        insert.setTimestamp(2, Timestamp.valueOf("2024-01-31 10:00:00.654321"));
        insert.executeUpdate();
        insert.setInt(1, 5);
        insert.setObject(2, LocalDateTime.parse("2024-01-31T10:00:00.000999"));
        insert.executeUpdate();
      }
    }
    assertEquals(List.of("1, 2024-01-31 10:00:00.123456", "2, 1969-12-31 23:59:59.999999",
        "3, 2000-02-29 00:00:00.000001", "4, 2024-01-31 10:00:00.654321",
        "5, 2024-01-31 10:00:00.000999"), ShardFixture.sorted(server.onShards(
            "SELECT ID, CAST(AT_TS AS VARCHAR(40)) FROM ITEMS")));
  }
}
