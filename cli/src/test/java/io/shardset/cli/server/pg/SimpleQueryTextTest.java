package io.shardset.cli.server.pg;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Splitting a simple Query message's text into statements: semicolons separate only outside
 * strings, quoted identifiers, dollar quotes and comments, as PostgreSQL's lexer reads them.
 */
class SimpleQueryTextTest {
  /** A text, what it is a case of, and its statements. */
  record Case(String what, String text, List<String> statements) {
    @Override public String toString() {
      return what;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("semicolons separate", "BEGIN; UPDATE T SET V = 1 WHERE K = 2;COMMIT;",
            List.of("BEGIN", "UPDATE T SET V = 1 WHERE K = 2", "COMMIT")),
        new Case("blanks around are dropped", "  SELECT 1  ", List.of("SELECT 1")),
        new Case("the empty query", "", List.of()),
        new Case("blank statements only", " ;; \n ; ", List.of()),
        new Case("comments only", "-- nothing; at all\n/* nor; here */;", List.of()),
        new Case("blank statements between", ";SELECT 1;;  ;SELECT 2;",
            List.of("SELECT 1", "SELECT 2")),
        new Case("strings and quoted identifiers",
            "SELECT 'a;b', 'it''s;', \"odd;name\"; SELECT 2",
            List.of("SELECT 'a;b', 'it''s;', \"odd;name\"", "SELECT 2")),
        new Case("a doubled quote in an identifier", "SELECT \"a\"\";b\"; SELECT 3",
            List.of("SELECT \"a\"\";b\"", "SELECT 3")),
        new Case("an escape string takes backslashes", "SELECT E'\\';x'; SELECT 1",
            List.of("SELECT E'\\';x'", "SELECT 1")),
        new Case("a plain string does not", "SELECT '\\'; SELECT 'x'",
            List.of("SELECT '\\'", "SELECT 'x'")),
        new Case("an identifier ending in E is no prefix", "SELECT NAME'\\'; SELECT 1",
            List.of("SELECT NAME'\\'", "SELECT 1")),
        new Case("dollar quotes", "SELECT $$a;b$$, $f$x;$$;y$f$; SELECT 2",
            List.of("SELECT $$a;b$$, $f$x;$$;y$f$", "SELECT 2")),
        new Case("parameters are no dollar quotes", "SELECT * FROM T WHERE K = $1; SELECT $2",
            List.of("SELECT * FROM T WHERE K = $1", "SELECT $2")),
        new Case("a dollar inside an identifier", "SELECT A$B FROM T; SELECT 1",
            List.of("SELECT A$B FROM T", "SELECT 1")),
        new Case("a line comment", "SELECT 1 -- one; two\n; SELECT 2",
            List.of("SELECT 1 -- one; two", "SELECT 2")),
        new Case("block comments nest", "SELECT /* a /* b; */ c; */ 1; SELECT 2",
            List.of("SELECT /* a /* b; */ c; */ 1", "SELECT 2")),
        new Case("minus and slash are operators", "SELECT 4 - 1 / 2; SELECT 3",
            List.of("SELECT 4 - 1 / 2", "SELECT 3")),
        new Case("an unterminated string runs to the end", "SELECT 'a; SELECT 2",
            List.of("SELECT 'a; SELECT 2")),
        new Case("an unterminated dollar quote", "SELECT $x$ a; b", List.of("SELECT $x$ a; b")),
        new Case("an unterminated comment", "SELECT 1 /* a; b", List.of("SELECT 1 /* a; b")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void splitsAsPostgresqlsLexerReads(Case c) {
    assertEquals(c.statements(), SimpleQueryText.statements(c.text()));
  }

  @Test void parametersBecomeJdbcMarkersOutsideStringsAndComments() {
    final SimpleQueryText.JdbcText text = SimpleQueryText.jdbcText(
        "SELECT $2, '$1', \"$1\", $$ $1 $$ /* $1 */ FROM T WHERE A = $1 AND B = $2 -- $3");
    assertEquals("SELECT ?, '$1', \"$1\", $$ $1 $$ /* $1 */ FROM T WHERE A = ? AND B = ? -- $3",
        text.sql());
    assertArrayEquals(new int[] {2, 1, 2}, text.numbers());
    assertEquals(2, text.parameterCount());
    assertEquals(0, SimpleQueryText.jdbcText("SELECT A$1 FROM T").parameterCount());
  }

  @Test void castStringsBecomeTheTypedLiteralsTheyStandFor() {
    assertEquals("INSERT INTO T VALUES (((-1234567890.99)), (DATE '2000-02-29'),"
        + " (TIMESTAMP '1999-12-31 23:59:59.123'), TIME '10:00:00', (0.0015))",
        SimpleQueryText.typedLiterals("INSERT INTO T VALUES (('-1234567890.99'::numeric),"
            + " ('2000-02-29 +00'::date), ('1999-12-31 23:59:59.123+00'::timestamp),"
            + " '10:00:00+02:00'::time, '1.5e-3'::decimal)"));
    // What is not a number, a cast with a precision, a column, and a string that is no
    // cast's stay as they are.
    final String unchanged = "SELECT 'a'::numeric, '5'::numeric(10, 2), X::timestamp,"
        + " '2024-01-01 +00', 'x''y'::date";
    assertEquals(unchanged, SimpleQueryText.typedLiterals(unchanged));
  }
}
