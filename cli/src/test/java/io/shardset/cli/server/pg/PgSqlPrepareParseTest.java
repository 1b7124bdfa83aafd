package io.shardset.cli.server.pg;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The PREPARE, EXECUTE and DEALLOCATE statements {@link PgSqlPrepare} reads. */
class PgSqlPrepareParseTest {
  @Test void readsTypesArgumentsAndNames() {
    final PgSqlPrepare prepare = PgSqlPrepare.parse(
        "PREPARE Q (int, character varying(20), numeric(12, 2), nosuchtype) AS\n"
            + "  SELECT * FROM t WHERE a = $1;");
    assertEquals("q", prepare.name());
    assertArrayEquals(new int[] {23, 1043, 1700, 0}, prepare.oids());
    assertEquals("SELECT * FROM t WHERE a = $1", prepare.statement());
    final PgSqlPrepare execute = PgSqlPrepare.parse(
        "execute \"Q\" ('it''s, here', -1.5e3, NULL, true, '2024-01-31'::date)");
    assertEquals("Q", execute.name());
    assertEquals(Arrays.asList("it's, here", "-1.5e3", null, "t", "2024-01-31"),
        execute.arguments());
    assertNull(PgSqlPrepare.parse("DEALLOCATE ALL").name());
    assertEquals("q", PgSqlPrepare.parse("deallocate prepare q").name());
  }

  @Test void refusesArgumentsThatAreNoLiterals() {
    final PgProtocolException e = assertThrows(PgProtocolException.class,
        () -> PgSqlPrepare.parse("EXECUTE q (1 + 1)"));
    assertEquals("0A000", e.sqlState());
    assertEquals("EXECUTE takes literal arguments (strings, numbers, true, false, null),"
        + " not: 1 + 1", e.getMessage());
  }
}
