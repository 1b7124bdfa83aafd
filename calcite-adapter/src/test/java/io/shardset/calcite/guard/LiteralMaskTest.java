package io.shardset.calcite.guard;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Literals masked, names kept: what a logged statement may show. */
class LiteralMaskTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
      "SELECT * FROM T WHERE V = 'Ann' | SELECT * FROM T WHERE V = '?'",
      "SELECT * FROM T WHERE V = 'O''Brien, 42' AND K = 7 | SELECT * FROM T WHERE V = '?' AND K = ?",
      "SELECT \"K1\", `V2`, T3.C4 FROM T3 WHERE X > 1.5E3 | SELECT \"K1\", `V2`, T3.C4 FROM T3 WHERE X > ?",
      "SELECT \"a 'b' 9\" FROM T WHERE K IN (1, 22, 333) | SELECT \"a 'b' 9\" FROM T WHERE K IN (?, ?, ?)",
      "SELECT * FROM T WHERE K = ? AND D = DATE '2024-01-31' | SELECT * FROM T WHERE K = ? AND D = DATE '?'",
      "WHERE V = 'unterminated | WHERE V = '?'"})
  void masksLiteralsAndKeepsNames(String sql, String masked) {
    assertEquals(masked, LiteralMask.mask(sql));
  }
}
