package io.shardset.calcite.prepare;

import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A statement parameterized by a template of its shape is parameterized as the parser's
 * parameterization does it: over generated statements of shapes with comments, quoted names,
 * typed, signed, decimal, prefixed and continued literals, repeated comparisons and values
 * that equal one another, every statement a template answers gets the text and values the
 * parsed statement gets.
 */
class LiteralTemplatesTest {
  private static final List<String> SHAPES = List.of(
      "SELECT A FROM T WHERE K = #i",
      "SELECT A FROM T WHERE K = #i AND S = #s",
      "SELECT A FROM T WHERE K IN (#i, #i, #i) AND S NOT IN (#s, #s)",
      "SELECT A, #i FROM T WHERE K = #i ORDER BY A LIMIT #i",
      "SELECT A FROM T WHERE (K = #i AND S = #s) OR (K = #i AND S = #s)",
      "SELECT A FROM T /* K = 5 */ WHERE K = #i -- S = 'x'\n AND S <> #s",
      "SELECT \"x1\" FROM T WHERE \"K 2\" = #i AND D = DATE '2020-01-0#d'",
      "SELECT A FROM T WHERE K = -#i AND B > #i",
      "SELECT A FROM T WHERE K = #i AND B = 1.5 AND C < 1e5 AND E = 2.#d",
      "SELECT A FROM T WHERE S = 'a'\n'b' AND K = #i",
      "SELECT A FROM T WHERE K = #i AND K = #i",
      "SELECT A FROM T WHERE B = X'0F' AND S LIKE #s AND K >= #i",
      "SELECT A FROM T WHERE S = #s GROUP BY A HAVING COUNT(*) > #i",
      "SELECT A FROM T t1 JOIN U u2 ON t1.K = u2.K WHERE u2.S = #s AND t1.K < #i");
  private static final List<String> INTEGERS = List.of("0", "1", "7", "42", "007",
      "2147483648", "99999999999999999999");
  private static final List<String> STRINGS = List.of("''", "'a'", "'it''s'", "'EU'", "'42'",
      "'\u00e9t\u00e9'", "'a--b'", "'/*'");

  @Test void aTemplateParameterizesAsTheParserDoes() throws SqlParseException {
    final LiteralTemplates templates = new LiteralTemplates(100);
    final PlanSettings settings = PlanSettings.of(new Properties());
    final RoutingColumns routing =
        RoutingColumns.of(CalciteSchema.createRootSchema(false).plus());
    final Random random = new Random(37);
    int answered = 0;
    int statements = 0;
    for (String shape : SHAPES) {
      int answeredOfShape = 0;
      for (int n = 0; n < 60; n++) {
        // Few values, so that some statements repeat a shape's kept literals or equal values.
        final int integers = n < 30 ? 3 : INTEGERS.size();
        final int strings = n < 30 ? 2 : STRINGS.size();
        final String sql = instance(shape, () -> INTEGERS.get(random.nextInt(integers)),
            () -> STRINGS.get(random.nextInt(strings)),
            () -> Integer.toString(1 + random.nextInt(2)));
        final LiteralParameterizer.ParameterizedSql parsed =
            LiteralParameterizer.parameterize(sql, parse(sql), routing);
        final LiteralTemplates.Match match = templates.match(settings, routing, sql);
        if (match != null) {
          assertEquals(parsed.sql(), match.sql(), sql);
          assertEquals(parsed.values(), match.values(), sql);
          answeredOfShape++;
        }
        if (!parsed.values().isEmpty()) {
          templates.record(settings, routing, sql, parsed);
        }
        statements++;
      }
      answered += answeredOfShape;
      System.out.println("LiteralTemplatesTest: " + answeredOfShape + " of 60 answered: "
          + shape.replace('\n', ' '));
    }
    assertEquals(SHAPES.size() * 60, statements);
    assertTrue(answered > statements / 2, answered + " of " + statements + " answered");
    assertEquals(answered, templates.hits());
  }

  @Test void statementsTheScannerLeavesToTheParser() {
    for (String sql : List.of("SELECT A FROM T WHERE K = ?", "SELECT `A` FROM T WHERE K = 1",
        "SELECT A FROM T WHERE S = 'open", "SELECT A /* open FROM T WHERE K = 1",
        "SELECT [A] FROM T WHERE K = 1")) {
      assertNull(LiteralScanner.scan(sql), sql);
    }
    final LiteralScanner.Scan scan = LiteralScanner.scan(
        "SELECT \"it's 1\", t2.K FROM T t2 WHERE K = 12 AND S = 'o''k' AND B = 1.5e3");
    assertEquals(List.of(new LiteralScanner.Literal(42, 44, new BigDecimal("12")),
        new LiteralScanner.Literal(53, 59, "o'k")), scan.literals());
  }

  private static String instance(String shape, Supplier<String> integer,
      Supplier<String> string, Supplier<String> digit) {
    final StringBuilder sql = new StringBuilder();
    for (int i = 0; i < shape.length(); i++) {
      if (shape.charAt(i) == '#' && i + 1 < shape.length()) {
        final char kind = shape.charAt(++i);
        sql.append(kind == 'i' ? integer.get() : kind == 's' ? string.get() : digit.get());
      } else {
        sql.append(shape.charAt(i));
      }
    }
    return sql.toString();
  }

  private static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, SqlParser.config()).parseStmt();
  }

}
