package io.shardset.cli.server.pg;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Values in PostgreSQL's binary format: numerics in base 10000 digits as PostgreSQL lays them
 * out, and every type read back as it was written. The layouts are PostgreSQL's own
 * ({@code numeric_send}, {@code date_send}, {@code timestamp_send}); pgJDBC reads them in
 * {@code PgJdbcTest}'s binary mode.
 */
class PgBinaryTest {
  @Test void numericsAreBase10000DigitsWithWeightSignAndScale() {
    // 12345.678: digits 1, 2345, 6780; weight 1; scale 3 (numeric_send's layout).
    assertArrayEquals(new byte[] {0, 3, 0, 1, 0, 0, 0, 3, 0, 1, 0x09, 0x29, 0x1a, 0x7c},
        PgBinary.numeric(new BigDecimal("12345.678")));
    // -0.0001: one digit 1 at weight -1, negative, scale 4.
    assertArrayEquals(new byte[] {0, 1, -1, -1, 0x40, 0, 0, 4, 0, 1},
        PgBinary.numeric(new BigDecimal("-0.0001")));
    // Zero with a scale: no digits.
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 2},
        PgBinary.numeric(new BigDecimal("0.00")));
  }

  @Test void everyValueReadsBackAsItWasWritten() {
    for (String number : List.of("0", "1", "-1", "10000", "9999.9999", "0.00000001",
        "-1234567890123456789.0123456789", "100000000", "1E+3", "123.4500")) {
      final BigDecimal value = new BigDecimal(number);
      final BigDecimal back = (BigDecimal) PgBinary.decode(PgBinary.numeric(value),
          PgBinary.NUMERIC);
      assertEquals(0, value.compareTo(back), number);
      assertEquals(Math.max(0, value.scale()), back.scale(), number);
    }
    assertRoundTrip(Long.MIN_VALUE, PgBinary.INT8);
    assertRoundTrip(Integer.MAX_VALUE, PgBinary.INT4);
    assertRoundTrip((short) -32768, PgBinary.INT2);
    assertRoundTrip(-0.0, PgBinary.FLOAT8);
    assertRoundTrip(Double.MIN_VALUE, PgBinary.FLOAT8);
    assertRoundTrip(1.5f, PgBinary.FLOAT4);
    assertRoundTrip(true, PgBinary.BOOL);
    assertRoundTrip(LocalDate.of(1999, 12, 31), PgBinary.DATE);
    assertRoundTrip(LocalDate.of(2000, 1, 1), PgBinary.DATE);
    assertRoundTrip(LocalDateTime.of(1970, 1, 1, 0, 0, 0, 123_456_000), PgBinary.TIMESTAMP);
    assertRoundTrip(LocalTime.of(23, 59, 59, 999_999_000), PgBinary.TIME);
    assertRoundTrip(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
        PgBinary.UUID_OID);
    assertEquals("text ✓", PgBinary.decode(PgBinary.encode("text ✓", PgBinary.TEXT),
        PgBinary.TEXT));
  }

  @Test void datesCountDaysFrom2000() {
    assertArrayEquals(new byte[] {-1, -1, -1, -1},
        PgBinary.encode(LocalDate.of(1999, 12, 31), PgBinary.DATE));
  }

  private static void assertRoundTrip(Object value, int oid) {
    assertEquals(value, PgBinary.decode(PgBinary.encode(value, oid), oid), value + " " + oid);
  }
}
