package io.shardset.tpch;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Exact values compare exactly, approximate ones within the relative tolerance. */
class ResultComparisonTest {
  private static final ResultComparison EXACT = new ResultComparison(Set.of());
  private static final ResultComparison SECOND_APPROXIMATE = new ResultComparison(Set.of(1));

  @Test void exactNumbersOfAnyTypeAndScaleAreEqualWhenTheirValuesAre() {
    assertEquals(Optional.empty(), EXACT.difference(
        rows(row(new BigDecimal("2.50"), 7, new BigDecimal("0.00"))),
        rows(row(new BigDecimal("2.5"), 7L, BigDecimal.ZERO))));
  }

  @Test void exactNumbersMayNotDifferInTheLastDigit() {
    assertEquals(Optional.of("row 0 column 0: expected 505822441.4861 (BigDecimal) but was"
            + " 505822441.4862 (BigDecimal); expected row [505822441.4861], actual row"
            + " [505822441.4862]"),
        EXACT.difference(rows(row(new BigDecimal("505822441.4861"))),
            rows(row(new BigDecimal("505822441.4862")))));
  }

  @Test void approximateColumnsMayDifferByTheRelativeTolerance() {
    assertEquals(Optional.empty(), SECOND_APPROXIMATE.difference(
        rows(row("A", new BigDecimal("25.575154611455"))),
        rows(row("A", 25.575154611454693))));
  }

  @Test void approximateColumnsMayNotDifferByMore() {
    // Calcite's AVG over DECIMAL(15, 2) stops at the cents.
    assertEquals(Optional.of("row 0 column 1: expected 25.575154611455 (BigDecimal) but was"
            + " 25.57 (BigDecimal); expected row [A, 25.575154611455], actual row [A, 25.57]"),
        SECOND_APPROXIMATE.difference(rows(row("A", new BigDecimal("25.575154611455"))),
            rows(row("A", new BigDecimal("25.57")))));
  }

  @Test void doublesAreApproximateInAnyColumn() {
    assertEquals(Optional.empty(),
        EXACT.difference(rows(row(0.1 + 0.2)), rows(row(new BigDecimal("0.3")))));
    assertEquals(Optional.of("row 0 column 0: expected 0.3 (Double) but was 0.3000001 (Double);"
            + " expected row [0.3], actual row [0.3000001]"),
        EXACT.difference(rows(row(0.3)), rows(row(0.3000001))));
  }

  @Test void nullsEqualOnlyNulls() {
    assertEquals(Optional.empty(), EXACT.difference(rows(row((Object) null)),
        rows(row((Object) null))));
    assertEquals(Optional.of("row 0 column 0: expected NULL but was 0 (BigDecimal); expected"
            + " row [null], actual row [0]"),
        EXACT.difference(rows(row((Object) null)), rows(row(0))));
  }

  @Test void datesOfEitherTypeAreEqual() {
    assertEquals(Optional.empty(), EXACT.difference(
        rows(row(java.sql.Date.valueOf("1995-03-15"))), rows(row(LocalDate.of(1995, 3, 15)))));
  }

  @Test void missingRowsAreADifference() {
    assertEquals(Optional.of("1 rows, expected 2"),
        EXACT.difference(rows(row("a"), row("b")), rows(row("a"))));
  }

  @Test void orderMattersUnlessBothAreSorted() {
    final ResultRows ab = rows(row("a", 1), row("b", 2));
    final ResultRows ba = rows(row("b", 2), row("a", 1));
    assertEquals(Optional.of("row 0 column 0: expected a (String) but was b (String);"
        + " expected row [a, 1], actual row [b, 2]"), EXACT.difference(ab, ba));
    assertEquals(Optional.empty(), EXACT.difference(ab.sorted(), ba.sorted()));
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  @SafeVarargs
  private static ResultRows rows(List<Object>... rows) {
    return ResultRows.of(List.of(rows));
  }
}
