package io.shardset.cli.load;

import io.shardset.model.ColumnInfo;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link ValueConverter} and {@link RowConverter}. */
class ValueConverterTest {
  private static final ColumnInfo ID = new ColumnInfo("ID", Types.BIGINT, "BIGINT", 64, 0, false);
  private static final ColumnInfo ITEMS =
      new ColumnInfo("ITEMS", Types.INTEGER, "INTEGER", 32, 0, true);
  private static final ColumnInfo AMOUNT =
      new ColumnInfo("AMOUNT", Types.DECIMAL, "DECIMAL", 12, 2, false);
  private static final ColumnInfo CODE = new ColumnInfo("CODE", Types.CHAR, "CHAR", 2, 0, true);
  private static final ColumnInfo NAME =
      new ColumnInfo("NAME", Types.VARCHAR, "VARCHAR", 1_000_000_000, 0, true);
  private static final ColumnInfo DAY = new ColumnInfo("DAY", Types.DATE, "DATE", 10, 0, true);
  private static final ColumnInfo AT =
      new ColumnInfo("AT", Types.TIMESTAMP, "TIMESTAMP", 26, 6, true);
  private static final ColumnInfo FLAG =
      new ColumnInfo("FLAG", Types.BOOLEAN, "BOOLEAN", 1, 0, true);

  private static Object convert(ColumnInfo column, String text) throws BadValueException {
    return ValueConverter.of(column).convert(text);
  }

  private static String reason(ColumnInfo column, String text) {
    return assertThrows(BadValueException.class, () -> convert(column, text)).getMessage();
  }

  @Test void integers() throws BadValueException {
    assertEquals(42L, convert(ID, "42"));
    assertEquals(-7, convert(ITEMS, " -7 "));
    assertEquals("column ITEMS: '2147483648' is not an INTEGER", reason(ITEMS, "2147483648"));
    assertEquals("column ID: '4.5' is not a BIGINT", reason(ID, "4.5"));
  }

  @Test void decimalsKeepTheirDigitsOrAreRejected() throws BadValueException {
    assertEquals(new BigDecimal("12.50"), convert(AMOUNT, "12.50"));
    assertEquals(new BigDecimal("9999999999.99"), convert(AMOUNT, "9999999999.99"));
    assertEquals(new BigDecimal("1.2300"), convert(AMOUNT, "1.2300"));
    assertEquals("column AMOUNT: '12,5' is not a DECIMAL(12, 2)", reason(AMOUNT, "12,5"));
    assertEquals("column AMOUNT: '1.234' is not a DECIMAL(12, 2)", reason(AMOUNT, "1.234"));
    assertEquals("column AMOUNT: '10000000000' is not a DECIMAL(12, 2)",
        reason(AMOUNT, "10000000000"));
  }

  @Test void nullIsAnEmptyUnquotedField() throws BadValueException {
    assertNull(convert(ITEMS, null));
    assertEquals("", convert(NAME, ""));
    assertEquals("column AMOUNT: empty field (NULL) in a NOT NULL column", reason(AMOUNT, null));
  }

  @Test void text() throws BadValueException {
    assertEquals("EU", convert(CODE, "EU"));
    assertEquals("x".repeat(70_000), convert(NAME, "x".repeat(70_000)));
    assertEquals("column CODE: 'EUR' is longer than CHAR(2)", reason(CODE, "EUR"));
  }

  @Test void datesAndTimestamps() throws BadValueException {
    assertEquals(LocalDate.of(2024, 2, 29), convert(DAY, "2024-02-29"));
    assertEquals("column DAY: '2023-02-29' is not a DATE", reason(DAY, "2023-02-29"));
    assertEquals("column DAY: '01/02/2024' is not a DATE", reason(DAY, "01/02/2024"));
    assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5), convert(AT, "2024-01-02 03:04:05"));
    assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000),
        convert(AT, "2024-01-02T03:04:05.12"));
    assertEquals(LocalDateTime.of(2024, 1, 2, 0, 0), convert(AT, "2024-01-02"));
    assertEquals("column AT: '2024-01-02 25:00' is not a TIMESTAMP",
        reason(AT, "2024-01-02 25:00"));
  }

  @Test void booleans() throws BadValueException {
    assertEquals(true, convert(FLAG, "TRUE"));
    assertEquals(false, convert(FLAG, "f"));
    assertEquals(true, convert(FLAG, "1"));
    assertEquals("column FLAG: 'yes' is not a BOOLEAN", reason(FLAG, "yes"));
  }

  @Test void rowsInTableOrder() throws BadValueException {
    final RowConverter rows = RowConverter.inTableOrder(java.util.List.of(ID, AMOUNT, CODE));
    assertArrayEquals(new Object[] {7L, new BigDecimal("1.5"), null},
        rows.convert(Arrays.asList("7", "1.5", null)));
    assertEquals("expected 3 fields, found 2", assertThrows(BadValueException.class,
        () -> rows.convert(Arrays.asList("7", "1.5"))).getMessage());
  }

  @Test void rowsByHeader() throws BadValueException {
    final java.util.List<ColumnInfo> columns = java.util.List.of(ID, AMOUNT, CODE);
    final RowConverter rows =
        RowConverter.forHeader(columns, java.util.List.of("code", "Id", "AMOUNT"));
    assertArrayEquals(new Object[] {7L, new BigDecimal("1.5"), "EU"},
        rows.convert(Arrays.asList("EU", "7", "1.5")));
    assertEquals("header does not match the table: unknown columns 'PRICE'; missing columns"
            + " AMOUNT; columns are ID, AMOUNT, CODE",
        assertThrows(IllegalArgumentException.class,
            () -> RowConverter.forHeader(columns, java.util.List.of("ID", "PRICE", "CODE")))
            .getMessage());
    assertEquals("header names column ID twice", assertThrows(IllegalArgumentException.class,
        () -> RowConverter.forHeader(columns, java.util.List.of("ID", "id", "CODE")))
        .getMessage());
  }
}
