package io.shardset.cli.server.pg;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The session's functions written into statements as literals, in code only. */
class PgSessionFunctionsTest {
  private final PgSettings settings = new PgSettings("app");
  private final List<String> set = new ArrayList<>();

  private String rewrite(String sql) {
    return PgSessionFunctions.rewrite(sql, 4711, settings, (name, value) -> {
      set.add(name + "=" + value);
      settings.set(name, value);
    });
  }

  @Test void answersTheSessionsCalls() {
    assertEquals("SELECT 4711, 4711",
        rewrite("SELECT pg_backend_pid(), PG_CATALOG.PG_BACKEND_PID ( )"));
    assertEquals("SELECT 'read committed', '\"$user\", public'",
        rewrite("SELECT current_setting('transaction_isolation'),"
            + " pg_catalog.current_setting('search_path')"));
    assertEquals("SELECT CAST(NULL AS VARCHAR)",
        rewrite("SELECT current_setting('nope', true)"));
    assertEquals("SELECT 'it''s'",
        rewrite("SELECT set_config('application_name', 'it''s', false)"));
    assertEquals(List.of("application_name=it's"), set);
    assertEquals("it's", settings.show("application_name"));
  }

  @Test void leavesStringsAndCommentsAlone() {
    final String sql = "SELECT 'pg_backend_pid()', \"current_setting('x')\""
        + " -- set_config('a', 'b', false)";
    assertEquals(sql, rewrite(sql));
    assertEquals(List.of(), set);
  }

  @Test void refusesASettingThereIsNoneOf() {
    final PgProtocolException e = assertThrows(PgProtocolException.class,
        () -> rewrite("SELECT current_setting('nope')"));
    assertEquals("42704", e.sqlState());
    assertEquals("unrecognized configuration parameter \"nope\"", e.getMessage());
  }
}
