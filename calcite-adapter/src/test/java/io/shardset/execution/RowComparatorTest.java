package io.shardset.execution;

import org.apache.calcite.avatica.util.ByteString;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link RowComparator}: NULL placement, directions, value classes and several keys. */
class RowComparatorTest {
  private static final RowComparator ASC = RowComparator.of(List.of(new SortKey(0, false, false)));

  /** Sorts one-field rows holding these values and returns the values in order. */
  private static List<@Nullable Object> sortValues(RowComparator comparator,
      @Nullable Object... values) {
    List<@Nullable Object[]> rows = new ArrayList<>();
    for (Object value : values) {
      rows.add(new Object[] {value});
    }
    rows.sort(comparator);
    return rows.stream().map(row -> row[0]).toList();
  }

  private static List<@Nullable Object> list(@Nullable Object... values) {
    return Arrays.asList(values);
  }

  @ParameterizedTest(name = "descending {0}, nulls first {1}")
  @CsvSource({
      "false, true,  null null 1 2 3",
      "false, false, 1 2 3 null null",
      "true,  true,  null null 3 2 1",
      "true,  false, 3 2 1 null null"})
  void placesNullsByTheKeyWhateverTheDirection(boolean descending, boolean nullsFirst,
      String expected) {
    RowComparator comparator =
        RowComparator.of(List.of(new SortKey(0, descending, nullsFirst)));
    List<@Nullable Object> expectedValues = Arrays.stream(expected.split(" "))
        .map(s -> s.equals("null") ? null : (Object) Integer.valueOf(s)).toList();
    assertEquals(expectedValues, sortValues(comparator, 2, null, 3, 1, null));
  }

  @Test void twoNullsAreEqual() {
    RowComparator comparator = RowComparator.of(List.of(new SortKey(0, true, true)));
    assertEquals(0, comparator.compare(new Object[] {null}, new Object[] {null}));
  }

  @Test void comparesDecimalsByValueWhateverTheirScale() {
    assertEquals(0, ASC.compare(row(new BigDecimal("1.0")), row(new BigDecimal("1.00"))));
    assertEquals(-1, Integer.signum(
        ASC.compare(row(new BigDecimal("1.00")), row(new BigDecimal("1.1")))));
    assertEquals(1, Integer.signum(
        ASC.compare(row(new BigDecimal("-1.5")), row(new BigDecimal("-2")))));
  }

  @Test void comparesNumbersOfDifferentClassesByValue() {
    assertEquals(0, ASC.compare(row(7), row(7L)));
    assertEquals(-1, Integer.signum(ASC.compare(row(7), row(8L))));
    assertEquals(1, Integer.signum(ASC.compare(row(Long.MAX_VALUE), row(Integer.MAX_VALUE))));
    assertEquals(0, ASC.compare(row(2), row(new BigDecimal("2.000"))));
    assertEquals(1, Integer.signum(ASC.compare(row(2L), row(new BigDecimal("1.5")))));
    assertEquals(-1, Integer.signum(ASC.compare(row(0.5d), row(1))));
    assertEquals(0, ASC.compare(row(0.25d), row(new BigDecimal("0.25"))));
    // 0.1 as a double is slightly above one tenth.
    assertEquals(1, Integer.signum(ASC.compare(row(0.1d), row(new BigDecimal("0.1")))));
    assertEquals(1, Integer.signum(ASC.compare(row(Double.NaN), row(Long.MAX_VALUE))));
    assertEquals(-1,
        Integer.signum(ASC.compare(row(Double.NEGATIVE_INFINITY), row(Long.MIN_VALUE))));
  }

  @Test void comparesStringsByCodeUnitsCaseSensitively() {
    assertEquals(
        list("", "A", "B", "Z", "a", "aa", "b", "e", "z", "ä", "é", "日本", "\uD83D\uDE00", "Ａ"),
        sortValues(ASC, "é", "b", "A", "z", "ä", "", "Z", "aa", "B", "e", "a", "Ａ",
            "\uD83D\uDE00", "日本"));
  }

  @Test void putsFalseBeforeTrue() {
    assertEquals(list(false, true, null), sortValues(ASC, true, null, false));
    RowComparator descending = RowComparator.of(List.of(new SortKey(0, true, true)));
    assertEquals(list(null, true, false), sortValues(descending, false, true, null));
  }

  @Test void comparesBinaryByUnsignedBytesThenLength() {
    ByteString empty = bytes();
    ByteString one = bytes(0x01);
    ByteString high = bytes(0x7f);
    ByteString negative = bytes(0x80);
    ByteString negativeLonger = bytes(0x80, 0x00);
    ByteString max = bytes(0xff);
    assertEquals(list(empty, one, high, negative, negativeLonger, max),
        sortValues(ASC, max, negativeLonger, one, negative, empty, high));
  }

  @Test void comparesByTheNextKeyOnlyOnTies() {
    RowComparator comparator = RowComparator.of(
        List.of(new SortKey(1, false, false), new SortKey(0, true, false)));
    List<@Nullable Object[]> rows = new ArrayList<>(List.of(
        new Object[] {1, "b"}, new Object[] {2, "a"}, new Object[] {3, "b"},
        new Object[] {4, "a"}, new Object[] {5, "B"}));
    rows.sort(comparator);
    assertEquals(List.of(List.of(5, "B"), List.of(4, "a"), List.of(2, "a"), List.of(3, "b"),
            List.of(1, "b")),
        rows.stream().map(Arrays::asList).toList());
  }

  @Test void rejectsValuesThatCannotBeCompared() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ASC.compare(row("7"), row(7)));
    assertEquals("cannot compare values of field 0: java.lang.String 7 and java.lang.Integer 7",
        e.getMessage());
  }

  @Test void rejectsNoKeysAndNegativeFields() {
    IllegalArgumentException noKeys =
        assertThrows(IllegalArgumentException.class, () -> RowComparator.of(List.of()));
    assertEquals("a row comparator needs at least one sort key", noKeys.getMessage());
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> new SortKey(-1, false, false));
    assertEquals("sort key field must not be negative, got -1", negative.getMessage());
  }

  @Test void keepsACopyOfItsKeys() {
    List<SortKey> keys = new ArrayList<>(List.of(new SortKey(2, true, false)));
    RowComparator comparator = RowComparator.of(keys);
    keys.add(new SortKey(0, false, false));
    assertEquals(List.of(new SortKey(2, true, false)), comparator.keys());
    assertTrue(comparator.compare(row(1, 1, 5), row(0, 0, 4)) < 0);
  }

  private static @Nullable Object[] row(@Nullable Object... values) {
    return values;
  }

  private static ByteString bytes(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return new ByteString(bytes);
  }
}
