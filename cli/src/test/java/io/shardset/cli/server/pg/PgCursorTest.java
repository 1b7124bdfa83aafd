package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL cursors through the PostgreSQL port with psql, against PostgreSQL itself on the same
 * rows: {@code DECLARE}, {@code FETCH} and {@code MOVE} in their forward forms, {@code CLOSE},
 * psql's {@code FETCH_COUNT} (which reads a query through a cursor), cursors closed at the end
 * of their transaction; and the errors for a cursor outside a transaction, a cursor that does
 * not exist, and the forms ShardSet refuses (backward, scrollable, WITH HOLD).
 */
class PgCursorTest {
  private static PgSideBySide both;

  @BeforeAll static void start() throws Exception {
    both = PgSideBySide.start("pgcursor", Backend.H2, 2, 30);
  }

  @AfterAll static void stop() throws SQLException {
    both.close();
  }

  private static void assertSameOutput(String... arguments) throws Exception {
    final List<Psql.Run> runs = both.psql(arguments);
    assertEquals(0, runs.get(0).exitCode(), runs.get(0).err());
    assertEquals(0, runs.get(1).exitCode(), runs.get(1).err());
    assertEquals(runs.get(1).out(), runs.get(0).out());
    assertTrue(runs.get(0).out().lines().count() > 3, runs.get(0).out());
  }

  @Test void declareFetchMoveAndClose() throws Exception {
    assertSameOutput("-c", "BEGIN",
        "-c", "DECLARE c CURSOR FOR SELECT id, name, price FROM items ORDER BY id",
        "-c", "FETCH 3 FROM c", "-c", "FETCH FORWARD 2 IN c", "-c", "MOVE 10 c",
        "-c", "MOVE FORWARD 1 FROM c", "-c", "FETCH NEXT FROM c", "-c", "FETCH c",
        "-c", "DECLARE \"Second\" NO SCROLL CURSOR WITHOUT HOLD FOR SELECT name FROM items"
            + " WHERE grp = 2 ORDER BY id",
        "-c", "FETCH ALL FROM c", "-c", "FETCH FORWARD ALL FROM \"Second\"", "-c", "FETCH c",
        "-c", "CLOSE c", "-c", "CLOSE ALL", "-c", "COMMIT");
  }

  @Test void psqlsFetchCountReadsThroughACursor() throws Exception {
    assertSameOutput("-v", "FETCH_COUNT=7", "-c", "SELECT id, name FROM items ORDER BY id");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "DECLARE d CURSOR FOR SELECT id FROM items|"
          + "ERROR:  25P01: DECLARE CURSOR can only be used in transaction blocks",
      "BEGIN; FETCH 1 FROM nope|ERROR:  34000: cursor \"nope\" does not exist",
      "BEGIN; DECLARE c CURSOR FOR SELECT id FROM items; COMMIT; FETCH c|"
          + "ERROR:  34000: cursor \"c\" does not exist",
      "BEGIN; DECLARE c CURSOR FOR SELECT id FROM items;"
          + " DECLARE c CURSOR FOR SELECT id FROM items|"
          + "ERROR:  42P03: cursor \"c\" already exists"})
  void errorsAsOnPostgresql(String statements, String error) throws Exception {
    for (Psql.Run run : both.statements(statements.split("; "))) {
      assertEquals(1, run.exitCode(), run.err());
      assertEquals(error, run.err().lines().findFirst().orElse(""), run.err());
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "BEGIN; DECLARE c CURSOR FOR SELECT id FROM items; FETCH BACKWARD 1 FROM c|"
          + "ERROR:  0A000: cursors go forward only: FETCH BACKWARD 1 is not supported",
      "BEGIN; DECLARE c SCROLL CURSOR FOR SELECT id FROM items|"
          + "ERROR:  0A000: scrollable cursors are not supported",
      "DECLARE c CURSOR WITH HOLD FOR SELECT id FROM items|"
          + "ERROR:  0A000: WITH HOLD cursors are not supported"})
  void formsShardSetRefuses(String statements, String error) throws Exception {
    final Psql.Run run = both.statements(statements.split("; ")).get(0);
    assertEquals(1, run.exitCode(), run.err());
    assertEquals(error, run.err().lines().findFirst().orElse(""), run.err());
  }
}
