package io.shardset.routing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/** The routing category of a shard key column; decides how values are normalized and hashed. */
public enum KeyType {
  /** Exact numbers of any SQL integer or decimal type; normalized to a canonical BigDecimal. */
  NUMBER {
    @Override Comparable<?> convert(Object value) {
      if (value instanceof BigDecimal number) {
        return KeyValues.canonicalNumber(number);
      }
      if (value instanceof Long || value instanceof Integer || value instanceof Short
          || value instanceof Byte) {
        return KeyValues.canonicalNumber(BigDecimal.valueOf(((Number) value).longValue()));
      }
      if (value instanceof BigInteger number) {
        return KeyValues.canonicalNumber(new BigDecimal(number));
      }
      // Through the decimal spelling, so that 0.1d routes like the literal 0.1.
      if (value instanceof Double number) {
        return KeyValues.canonicalNumber(BigDecimal.valueOf(number));
      }
      if (value instanceof Float number) {
        return KeyValues.canonicalNumber(new BigDecimal(number.toString()));
      }
      if (value instanceof String text) {
        return KeyValues.canonicalNumber(new BigDecimal(text));
      }
      return null;
    }

    @Override byte[] bytes(Comparable<?> normalized) {
      BigDecimal number = ((BigDecimal) normalized).stripTrailingZeros();
      if (number.scale() <= 0 && number.compareTo(LONG_MIN) >= 0
          && number.compareTo(LONG_MAX) <= 0) {
        return longBytes(number.longValueExact());
      }
      return number.toPlainString().getBytes(StandardCharsets.UTF_8);
    }
  },

  /** Variable-length text; compared and hashed exactly as given. */
  STRING {
    @Override Comparable<?> convert(Object value) {
      return text(value);
    }
  },

  /** Fixed-length text; trailing spaces are padding, so they do not take part in routing. */
  CHAR {
    @Override Comparable<?> convert(Object value) {
      String text = text(value);
      if (text == null) {
        return null;
      }
      int end = text.length();
      while (end > 0 && text.charAt(end - 1) == ' ') {
        end--;
      }
      return text.substring(0, end);
    }
  },

  /** A date without time zone; normalized to days since 1970-01-01. */
  DATE {
    @Override Comparable<?> convert(Object value) {
      if (value instanceof LocalDate date) {
        return date.toEpochDay();
      }
      if (value instanceof java.sql.Date date) {
        return date.toLocalDate().toEpochDay();
      }
      if (value instanceof Integer || value instanceof Long) {
        return ((Number) value).longValue();
      }
      if (value instanceof String text) {
        return LocalDate.parse(text).toEpochDay();
      }
      return null;
    }

    @Override public String format(Comparable<?> normalized) {
      return normalized == null ? "NULL"
          : LocalDate.ofEpochDay((Long) normalize(normalized)).toString();
    }
  },

  /** A timestamp without time zone; normalized to milliseconds since 1970-01-01T00:00:00. */
  TIMESTAMP {
    @Override Comparable<?> convert(Object value) {
      if (value instanceof Long millis) {
        return millis;
      }
      LocalDateTime dateTime = dateTime(value);
      return dateTime == null ? null : dateTime.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    @Override boolean truncates(Object value) {
      LocalDateTime dateTime = dateTime(value);
      return dateTime != null && dateTime.getNano() % 1_000_000 != 0;
    }

    @Override public String format(Comparable<?> normalized) {
      if (normalized == null) {
        return "NULL";
      }
      long millis = (Long) normalize(normalized);
      LocalDateTime dateTime = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
          (int) Math.floorMod(millis, 1000L) * 1_000_000, ZoneOffset.UTC);
      return dateTime.format(dateTime.getNano() == 0 ? SECONDS : MILLIS);
    }
  },

  /** TRUE or FALSE. */
  BOOLEAN {
    @Override Comparable<?> convert(Object value) {
      if (value instanceof Boolean bool) {
        return bool;
      }
      if (value instanceof String text) {
        if (text.equalsIgnoreCase("true")) {
          return Boolean.TRUE;
        }
        if (text.equalsIgnoreCase("false")) {
          return Boolean.FALSE;
        }
      }
      return null;
    }

    @Override byte[] bytes(Comparable<?> normalized) {
      return new byte[] {(byte) ((Boolean) normalized ? 1 : 0)};
    }

    @Override public String format(Comparable<?> normalized) {
      return normalized == null ? "NULL"
          : normalize(normalized).toString().toUpperCase(Locale.ROOT);
    }
  };

  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final int DATE_LENGTH = "2020-01-01".length();
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT);
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS", Locale.ROOT);

  /** This type's routing form of a non-null value, or null if the value's class is not accepted. */
  abstract Comparable<?> convert(Object value);

  /**
   * Whether normalizing this valid value drops precision, so that the normalized value lies below
   * the value itself; then {@code key < value} also holds for keys equal to the normalized value.
   */
  boolean truncates(Object value) {
    return false;
  }

  /** Canonical bytes of a non-null normalized value; text and calendar types share the default. */
  byte[] bytes(Comparable<?> normalized) {
    if (normalized instanceof String text) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    return longBytes((Long) normalized);
  }

  /**
   * Normalizes a Java value to this type's routing form; null stays null. Normalizing a value that
   * is already normalized returns an equal value.
   *
   * <ul>
   * <li>NUMBER: a BigDecimal without trailing zeros and with a scale of at least 0, from Byte,
   *     Short, Integer, Long, BigInteger, BigDecimal, Float and Double (through their decimal
   *     spelling) and numeric Strings;
   * <li>STRING: a String, from CharSequence and Character;
   * <li>CHAR: like STRING, with trailing spaces removed;
   * <li>DATE: a Long, days since 1970-01-01, from LocalDate, java.sql.Date, Integer or Long days
   *     and ISO strings such as "2020-01-01";
   * <li>TIMESTAMP: a Long, milliseconds since 1970-01-01T00:00:00 without time zone (finer
   *     fractions are truncated), from LocalDateTime, java.sql.Timestamp, Long milliseconds,
   *     LocalDate (at midnight) and strings "2020-01-01 10:00:00", "2020-01-01T10:00:00.123" or
   *     "2020-01-01";
   * <li>BOOLEAN: a Boolean, from Boolean and the strings "true" and "false" in any case.
   * </ul>
   *
   * @throws IllegalArgumentException naming the value, its class and this type, when the value
   *     cannot be converted
   */
  public Comparable<?> normalize(Object value) {
    if (value == null) {
      return null;
    }
    Comparable<?> normalized;
    try {
      normalized = convert(value);
    } catch (NumberFormatException | DateTimeException | ArithmeticException e) {
      throw invalid(value, e);
    }
    if (normalized == null) {
      throw invalid(value, null);
    }
    return normalized;
  }

  /**
   * The canonical bytes that the routing contract hashes: for NUMBER a value without fractional
   * part that fits in a long is its 8 bytes big-endian, any other the UTF-8 of its plain spelling;
   * STRING and CHAR their UTF-8; DATE and TIMESTAMP their long, 8 bytes big-endian; BOOLEAN one
   * byte, 1 or 0; null no bytes. The value is normalized first, so raw values are accepted too.
   */
  public byte[] canonicalBytes(Comparable<?> normalized) {
    Comparable<?> value = normalize(normalized);
    return value == null ? new byte[0] : bytes(value);
  }

  /** A normalized value as SQL would spell it, for messages and plans: 'EU', 2020-01-01, 12.5. */
  public String format(Comparable<?> normalized) {
    return normalized == null ? "NULL" : KeyValues.format(normalize(normalized));
  }

  /** The key type of a column of a {@link java.sql.Types} code; empty if it cannot be a key. */
  public static Optional<KeyType> forJdbcType(int sqlType) {
    switch (sqlType) {
    case Types.TINYINT:
    case Types.SMALLINT:
    case Types.INTEGER:
    case Types.BIGINT:
    case Types.DECIMAL:
    case Types.NUMERIC:
      return Optional.of(NUMBER);
    case Types.CHAR:
    case Types.NCHAR:
      return Optional.of(CHAR);
    case Types.VARCHAR:
    case Types.NVARCHAR:
    case Types.LONGVARCHAR:
    case Types.LONGNVARCHAR:
      return Optional.of(STRING);
    case Types.DATE:
      return Optional.of(DATE);
    case Types.TIMESTAMP:
      return Optional.of(TIMESTAMP);
    case Types.BOOLEAN:
    case Types.BIT:
      return Optional.of(BOOLEAN);
    default:
      return Optional.empty();
    }
  }

  private IllegalArgumentException invalid(Object value, Exception cause) {
    return new IllegalArgumentException(
        "value " + KeyValues.describe(value) + " is not a valid " + name(), cause);
  }

  private static String text(Object value) {
    if (value instanceof CharSequence text) {
      return text.toString();
    }
    if (value instanceof Character character) {
      return character.toString();
    }
    return null;
  }

  /** The date-time of a TIMESTAMP value given as an object, or null for other classes. */
  private static LocalDateTime dateTime(Object value) {
    if (value instanceof LocalDateTime dateTime) {
      return dateTime;
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      return timestamp.toLocalDateTime();
    }
    if (value instanceof LocalDate date) {
      return date.atStartOfDay();
    }
    if (value instanceof String text) {
      if (text.length() == DATE_LENGTH) {
        return LocalDate.parse(text).atStartOfDay();
      }
      if (text.length() > DATE_LENGTH && text.charAt(DATE_LENGTH) == ' ') {
        text = text.substring(0, DATE_LENGTH) + 'T' + text.substring(DATE_LENGTH + 1);
      }
      return LocalDateTime.parse(text);
    }
    return null;
  }

  private static byte[] longBytes(long value) {
    return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
  }
}
