package io.shardset.write;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.UUID;

/**
 * JDBC values as PostgreSQL's {@code COPY ... (FORMAT csv)} reads them: NULL is an empty
 * unquoted field, text is always quoted (so an empty string stays one), and every other value
 * is written the way pgJDBC's {@code setObject} would have sent it.
 */
final class CopyCsv {
  private static final HexFormat HEX = HexFormat.of();

  private CopyCsv() {
  }

  /**
   * Appends a value as a CSV field.
   *
   * @return false, appending nothing, for a value of a type this does not know: the caller
   *     sends its rows another way
   */
  static boolean append(StringBuilder text, Object value) {
    if (value == null) {
      return true;
    }
    if (value instanceof String || value instanceof Character || value instanceof UUID) {
      quoted(text, value.toString());
    } else if (value instanceof BigDecimal decimal) {
      text.append(decimal.toPlainString());
    } else if (value instanceof Integer || value instanceof Long || value instanceof Short
        || value instanceof Byte || value instanceof Double || value instanceof Float
        || value instanceof Boolean || value instanceof java.math.BigInteger) {
      // Double's NaN and Infinity are spelled as PostgreSQL reads them.
      text.append(value);
    } else if (value instanceof Timestamp timestamp) {
      // pgJDBC sends a Timestamp as its fields in the JVM's time zone with that zone's
      // offset; so does this, and a column without time zone ignores the offset.
      final LocalDateTime local = timestamp.toLocalDateTime();
      text.append(local).append(ZoneId.systemDefault().getRules().getOffset(local));
    } else if (value instanceof java.sql.Date || value instanceof java.sql.Time
        || value instanceof LocalDate || value instanceof LocalDateTime
        || value instanceof LocalTime || value instanceof OffsetDateTime) {
      text.append(value);
    } else if (value instanceof byte[] bytes) {
      text.append("\\x").append(HEX.formatHex(bytes));
    } else {
      return false;
    }
    return true;
  }

  private static void quoted(StringBuilder text, String value) {
    text.append('"');
    for (int i = 0; i < value.length(); i++) {
      final char c = value.charAt(i);
      if (c == '"') {
        text.append('"');
      }
      text.append(c);
    }
    text.append('"');
  }
}
