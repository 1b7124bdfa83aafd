package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scatter the model warns of ({@code "scatter": "warn"}) reaches PostgreSQL's clients as a
 * NoticeResponse of each statement that scatters (WARNING, 01000), where the server's log has
 * it once per statement shape: psql prints it, pgJDBC gives it as the statement's warning. A
 * statement on one shard has none.
 */
class PgNoticeTest {
  private static final String WARNING = "scatter: the statement reads S.ITEMS on all 3 of its"
      + " shards, and the scatter setting of table S.ITEMS is warn";
  private static PgServerFixture server;

  @BeforeAll static void start() throws Exception {
    server = PgServerFixture.start(Backend.H2, 3, PgJdbcTest.TABLES.replace("}",
        ", \"scatter\": \"warn\"}"), PgJdbcTest.DDL);
    try (Connection c = server.embedded()) {
      PgJdbcTest.load(c, 20);
    }
  }

  @AfterAll static void stop() throws SQLException {
    server.close();
  }

  @Test void psqlPrintsTheWarningOfEachScatter() throws Exception {
    final Psql.Run run = Psql.run(server.port(), "tester", null,
        "-c", "SELECT count(*) FROM items", "-c", "SELECT count(*) FROM items",
        "-c", "SELECT name FROM items WHERE id = 3");
    assertEquals(0, run.exitCode(), run.err());
    assertEquals(List.of("20", "20", "item 3"), run.lines());
    assertEquals(List.of("WARNING:  01000: " + WARNING, "WARNING:  01000: " + WARNING),
        run.err().lines().toList());
  }

  @Test void pgjdbcGivesItAsTheStatementsWarning() throws Exception {
    try (Connection pg = server.pg("");
        PreparedStatement scatter =
            pg.prepareStatement("SELECT count(*) FROM items WHERE grp < ?");
        PreparedStatement point = pg.prepareStatement("SELECT name FROM items WHERE id = ?")) {
      scatter.setInt(1, 5);
      try (ResultSet rs = scatter.executeQuery()) {
        assertTrue(rs.next());
      }
      final SQLWarning warning = scatter.getWarnings();
      assertEquals(WARNING, warning.getMessage());
      assertEquals("01000", warning.getSQLState());
      point.setInt(1, 3);
      try (ResultSet rs = point.executeQuery()) {
        assertTrue(rs.next());
      }
      assertNull(point.getWarnings());
      try (Statement s = pg.createStatement()) {
        s.execute("SELECT 1");
        assertNull(s.getWarnings());
      }
    }
  }
}
