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
 * SQL's PREPARE, EXECUTE and DEALLOCATE through the PostgreSQL port with psql, against
 * PostgreSQL itself on the same rows: queries and writes prepared with typed and untyped
 * parameters, executed with literal arguments, a row written and read back, deallocated one
 * by one and all at once; and the same errors for a statement that does not exist, one
 * prepared twice and one executed with the wrong number of arguments.
 */
class PgSqlPrepareTest {
  private static PgSideBySide both;

  @BeforeAll static void start() throws Exception {
    both = PgSideBySide.start("pgprepare", Backend.H2, 2, 30);
  }

  @AfterAll static void stop() throws SQLException {
    both.close();
  }

  @Test void prepareExecuteAndDeallocate() throws Exception {
    final List<Psql.Run> runs = both.statements(
        "PREPARE by_group (int) AS SELECT id, name FROM items WHERE grp = $1 ORDER BY id",
        "EXECUTE by_group(3)", "EXECUTE by_group ('4')",
        "PREPARE add AS INSERT INTO items (id, grp, name, price) VALUES ($1, $2, $3, $4)",
        "EXECUTE add(900, 1, 'it''s new', 12.5)", "EXECUTE add(901, 2, NULL, -0.01)",
        "PREPARE \"One\" AS SELECT name, price FROM items WHERE id = $1",
        "EXECUTE \"One\"(900)", "EXECUTE \"One\"(901)",
        "PREPARE counted AS SELECT count(*) AS n FROM items", "EXECUTE counted",
        "DEALLOCATE by_group", "DEALLOCATE PREPARE add", "DEALLOCATE ALL",
        "DELETE FROM items WHERE id >= 900");
    assertEquals(0, runs.get(0).exitCode(), runs.get(0).err());
    assertEquals(0, runs.get(1).exitCode(), runs.get(1).err());
    assertEquals(runs.get(1).out(), runs.get(0).out());
    assertTrue(runs.get(0).out().contains("it's new|12.50"), runs.get(0).out());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "EXECUTE nope|ERROR:  26000: prepared statement \"nope\" does not exist",
      "DEALLOCATE nope|ERROR:  26000: prepared statement \"nope\" does not exist",
      "PREPARE p AS SELECT 1; PREPARE p AS SELECT 2"
          + "|ERROR:  42P05: prepared statement \"p\" already exists",
      "PREPARE p (int) AS SELECT $1; EXECUTE p"
          + "|ERROR:  42601: wrong number of parameters for prepared statement \"p\""})
  void errorsAsOnPostgresql(String statements, String error) throws Exception {
    for (Psql.Run run : both.statements(statements.split("; "))) {
      assertEquals(1, run.exitCode(), run.err());
      assertEquals(error, run.err().lines().findFirst().orElse(""), run.err());
    }
  }
}
