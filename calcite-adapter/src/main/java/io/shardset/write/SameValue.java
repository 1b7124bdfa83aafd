package io.shardset.write;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;

/**
 * Whether a value a statement read and the value a shard holds now are the same, whatever
 * Java types the two reads gave them (an Integer and a Long, a BigDecimal of another scale,
 * a {@code java.sql.Timestamp} and a {@code LocalDateTime}). Times compare to the
 * millisecond, the precision ShardSet's reads carry; text ignores trailing blanks, which
 * CHAR columns pad.
 */
final class SameValue {
  private SameValue() {
  }

  static boolean same(Object read, Object current) {
    if (read == null || current == null) {
      return read == current;
    }
    final Object a = normal(read);
    final Object b = normal(current);
    if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
      return x.compareTo(y) == 0;
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    return a.equals(b);
  }

  private static Object normal(Object value) {
    if (value instanceof Boolean flag) {
      // MariaDB reads a BOOLEAN column as a number.
      return flag ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    if (value instanceof Number number) {
      try {
        return new BigDecimal(number.toString());
      } catch (NumberFormatException e) {
        // NaN or infinity.
        return number.toString();
      }
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      return timestamp.toLocalDateTime().truncatedTo(ChronoUnit.MILLIS);
    }
    if (value instanceof java.sql.Date date) {
      return date.toLocalDate();
    }
    if (value instanceof java.sql.Time time) {
      return time.toLocalTime().truncatedTo(ChronoUnit.MILLIS);
    }
    if (value instanceof LocalDateTime dateTime) {
      return dateTime.truncatedTo(ChronoUnit.MILLIS);
    }
    if (value instanceof LocalTime time) {
      return time.truncatedTo(ChronoUnit.MILLIS);
    }
    if (value instanceof OffsetDateTime dateTime) {
      return dateTime.toInstant().truncatedTo(ChronoUnit.MILLIS);
    }
    if (value instanceof String text) {
      return text.stripTrailing();
    }
    if (value instanceof java.util.UUID uuid) {
      return uuid.toString();
    }
    return value;
  }
}
