package io.shardset.routing;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Optional;

import static io.shardset.routing.RoutingAsserts.assertIllegal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Tests {@link KeyType}: normalization, canonical bytes, display and JDBC type mapping. */
class KeyTypeTest {
  @Test void numbersOfEveryJavaClassNormalizeToOneBigDecimal() {
    BigDecimal expected = new BigDecimal("42");
    for (Object value : new Object[] {(byte) 42, (short) 42, 42, 42L, BigInteger.valueOf(42),
        new BigDecimal("42.000"), new BigDecimal("4.2E+1"), 42.0d, 42.0f, "42", "42.0"}) {
      Comparable<?> normalized = KeyType.NUMBER.normalize(value);
      assertEquals(expected, normalized, "normalizing " + value + " (" + value.getClass() + ")");
    }
  }

  @Test void numbersKeepTheirFractionWithoutTrailingZeros() {
    assertEquals(new BigDecimal("12.5"), KeyType.NUMBER.normalize(new BigDecimal("12.50")));
    assertEquals(new BigDecimal("0.1"), KeyType.NUMBER.normalize(0.1d));
    assertEquals(new BigDecimal("0.1"), KeyType.NUMBER.normalize(0.1f));
    assertEquals(new BigDecimal("100"), KeyType.NUMBER.normalize(new BigDecimal("1E+2")));
    assertEquals(0, ((BigDecimal) KeyType.NUMBER.normalize(new BigDecimal("1E+2"))).scale());
    assertEquals(new BigDecimal("-0.5"), KeyType.NUMBER.normalize(-0.5d));
  }

  @Test void textTypes() {
    assertEquals("EU  x", KeyType.STRING.normalize("EU  x"));
    assertEquals("EU ", KeyType.STRING.normalize(new StringBuilder("EU ")));
    assertEquals("E", KeyType.STRING.normalize('E'));
    assertEquals("EU", KeyType.CHAR.normalize("EU   "));
    assertEquals(" EU\t", KeyType.CHAR.normalize(" EU\t  "));
    assertEquals("", KeyType.CHAR.normalize("   "));
  }

  @Test void datesBecomeDaysSinceTheEpoch() {
    assertEquals(18262L, KeyType.DATE.normalize(LocalDate.of(2020, 1, 1)));
    assertEquals(18262L, KeyType.DATE.normalize(java.sql.Date.valueOf("2020-01-01")));
    assertEquals(18262L, KeyType.DATE.normalize("2020-01-01"));
    assertEquals(18262L, KeyType.DATE.normalize(18262));
    assertEquals(-1L, KeyType.DATE.normalize(-1L));
    assertEquals(-25567L, KeyType.DATE.normalize("1900-01-01"));
  }

  @Test void timestampsBecomeMillisSinceTheEpochWithoutZone() {
    long tenOClock = 1_577_872_800_000L;
    assertEquals(tenOClock, KeyType.TIMESTAMP.normalize(LocalDateTime.of(2020, 1, 1, 10, 0)));
    assertEquals(tenOClock,
        KeyType.TIMESTAMP.normalize(java.sql.Timestamp.valueOf("2020-01-01 10:00:00")));
    assertEquals(tenOClock, KeyType.TIMESTAMP.normalize(tenOClock));
    assertEquals(tenOClock, KeyType.TIMESTAMP.normalize("2020-01-01 10:00:00"));
    assertEquals(tenOClock, KeyType.TIMESTAMP.normalize("2020-01-01T10:00:00"));
    assertEquals(tenOClock + 123, KeyType.TIMESTAMP.normalize("2020-01-01 10:00:00.123"));
    assertEquals(tenOClock + 123, KeyType.TIMESTAMP.normalize("2020-01-01 10:00:00.123999"));
    assertEquals(tenOClock - 36_000_000L, KeyType.TIMESTAMP.normalize("2020-01-01"));
    assertEquals(tenOClock - 36_000_000L, KeyType.TIMESTAMP.normalize(LocalDate.of(2020, 1, 1)));
    assertEquals(-1L, KeyType.TIMESTAMP.normalize("1969-12-31 23:59:59.999"));
  }

  @Test void booleans() {
    assertEquals(true, KeyType.BOOLEAN.normalize(true));
    assertEquals(true, KeyType.BOOLEAN.normalize("TRUE"));
    assertEquals(false, KeyType.BOOLEAN.normalize("False"));
  }

  @Test void nullStaysNullAndHasNoBytes() {
    for (KeyType type : KeyType.values()) {
      assertNull(type.normalize(null));
      assertArrayEquals(new byte[0], type.canonicalBytes(null));
      assertEquals("NULL", type.format(null));
    }
  }

  @Test void normalizingTwiceChangesNothing() {
    Object[][] samples = {
        {KeyType.NUMBER, "12.50"}, {KeyType.STRING, "x "}, {KeyType.CHAR, "x "},
        {KeyType.DATE, "2020-01-01"}, {KeyType.TIMESTAMP, "2020-01-01 10:00:00.5"},
        {KeyType.BOOLEAN, "true"}};
    for (Object[] sample : samples) {
      KeyType type = (KeyType) sample[0];
      Comparable<?> once = type.normalize(sample[1]);
      assertEquals(once, type.normalize(once), type.name());
    }
  }

  @Test void valuesThatDoNotFitTheTypeAreRejectedByName() {
    assertInvalid(KeyType.DATE, "abc", "value 'abc' (String) is not a valid DATE");
    assertInvalid(KeyType.DATE, 1.5d, "value '1.5' (Double) is not a valid DATE");
    assertInvalid(KeyType.NUMBER, "abc", "value 'abc' (String) is not a valid NUMBER");
    assertInvalid(KeyType.NUMBER, Double.NaN, "value 'NaN' (Double) is not a valid NUMBER");
    assertInvalid(KeyType.NUMBER, true, "value 'true' (Boolean) is not a valid NUMBER");
    assertInvalid(KeyType.STRING, 42, "value '42' (Integer) is not a valid STRING");
    assertInvalid(KeyType.CHAR, 42L, "value '42' (Long) is not a valid CHAR");
    assertInvalid(KeyType.TIMESTAMP, "2020-01-01 25:00:00",
        "value '2020-01-01 25:00:00' (String) is not a valid TIMESTAMP");
    assertInvalid(KeyType.TIMESTAMP, 42, "value '42' (Integer) is not a valid TIMESTAMP");
    assertInvalid(KeyType.BOOLEAN, "yes", "value 'yes' (String) is not a valid BOOLEAN");
    assertInvalid(KeyType.BOOLEAN, 1, "value '1' (Integer) is not a valid BOOLEAN");
  }

  @Test void formatSpellsValuesAsSql() {
    assertEquals("12.5", KeyType.NUMBER.format(new BigDecimal("12.50")));
    assertEquals("100", KeyType.NUMBER.format(new BigDecimal("1E+2")));
    assertEquals("'it''s'", KeyType.STRING.format("it's"));
    assertEquals("'EU'", KeyType.CHAR.format("EU  "));
    assertEquals("1969-12-31", KeyType.DATE.format(-1L));
    assertEquals("2020-01-01 10:00:00", KeyType.TIMESTAMP.format(1_577_872_800_000L));
    assertEquals("1969-12-31 23:59:59.999", KeyType.TIMESTAMP.format(-1L));
    assertEquals("TRUE", KeyType.BOOLEAN.format(true));
  }

  @Test void jdbcTypes() {
    for (int sqlType : new int[] {Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT,
        Types.DECIMAL, Types.NUMERIC}) {
      assertEquals(Optional.of(KeyType.NUMBER), KeyType.forJdbcType(sqlType));
    }
    assertEquals(Optional.of(KeyType.CHAR), KeyType.forJdbcType(Types.CHAR));
    assertEquals(Optional.of(KeyType.CHAR), KeyType.forJdbcType(Types.NCHAR));
    for (int sqlType : new int[] {Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR,
        Types.LONGNVARCHAR}) {
      assertEquals(Optional.of(KeyType.STRING), KeyType.forJdbcType(sqlType));
    }
    assertEquals(Optional.of(KeyType.DATE), KeyType.forJdbcType(Types.DATE));
    assertEquals(Optional.of(KeyType.TIMESTAMP), KeyType.forJdbcType(Types.TIMESTAMP));
    assertEquals(Optional.of(KeyType.BOOLEAN), KeyType.forJdbcType(Types.BOOLEAN));
    assertEquals(Optional.of(KeyType.BOOLEAN), KeyType.forJdbcType(Types.BIT));
    for (int sqlType : new int[] {Types.DOUBLE, Types.REAL, Types.FLOAT, Types.TIME,
        Types.TIMESTAMP_WITH_TIMEZONE, Types.BLOB, Types.OTHER}) {
      assertEquals(Optional.empty(), KeyType.forJdbcType(sqlType), "type " + sqlType);
    }
  }

  private static void assertInvalid(KeyType type, Object value, String message) {
    assertIllegal(message, () -> type.normalize(value));
  }
}
