package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Sets the values a Bind message carries on a statement's parameters: a value in binary is
 * read by the type the client declared in its Parse (or, where it declared none, the type the
 * statement gives the parameter), a value in text by the parameter's type, as PostgreSQL reads
 * a literal of that type. A value that does not read as its type is the client's error
 * ({@code 22P02}), named with the parameter.
 */
final class PgParameters {
  /** A timestamp as PostgreSQL writes and reads it: a space or a T, up to nine decimals. */
  private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE).optionalStart().appendLiteral(' ').optionalEnd()
      .optionalStart().appendLiteral('T').optionalEnd()
      .append(DateTimeFormatter.ISO_LOCAL_TIME).toFormatter(Locale.ROOT);
  private static final DateTimeFormatter TIMESTAMP_ZONED = new DateTimeFormatterBuilder()
      .append(TIMESTAMP).optionalStart().appendOffset("+HH:mm", "Z").optionalEnd()
      .optionalStart().appendOffset("+HH", "Z").optionalEnd()
      .parseDefaulting(ChronoField.OFFSET_SECONDS, 0).toFormatter(Locale.ROOT);

  /** A zone offset at the end of a value. */
  private static final Pattern ZONE_OFFSET =
      Pattern.compile("(?:\\s+|(?<=:\\d\\d(?:\\.\\d{1,9})?))"
          + "(?:[+-]\\d{2}(?::?\\d{2}(?::?\\d{2})?)?|Z)$");

  private PgParameters() {
  }

  /**
   * Sets parameter {@code index} (from 1).
   *
   * @param value the value's bytes, null for NULL
   * @param binary whether they are in binary
   * @param declaredOid the type the client declared, 0 for none
   * @param jdbcType the parameter's type in the statement
   */
  static void set(PreparedStatement statement, int index, byte @Nullable [] value,
      boolean binary, int declaredOid, int jdbcType) throws SQLException {
    if (value == null) {
      statement.setNull(index, jdbcType == Types.OTHER ? Types.VARCHAR : jdbcType);
      return;
    }
    final Object decoded;
    if (binary) {
      decoded = PgBinary.decode(value, declaredOid != 0 ? declaredOid
          : PgType.of(jdbcType, "", 0, 0).oid());
    } else {
      decoded = new String(value, StandardCharsets.UTF_8);
    }
    try {
      setAs(statement, index, decoded, jdbcType);
    } catch (NumberFormatException | DateTimeParseException | ClassCastException e) {
      throw new PgProtocolException("22P02", String.format(Locale.ROOT,
          "invalid input for parameter $%d of type %s", index, typeName(jdbcType)));
    }
  }

  private static void setAs(PreparedStatement statement, int index, Object value, int jdbcType)
      throws SQLException {
    final String text = value instanceof String s ? s.trim() : null;
    switch (jdbcType) {
    case Types.TINYINT:
    case Types.SMALLINT:
    case Types.INTEGER:
      statement.setInt(index, text != null ? Integer.parseInt(text) : whole(value).intValueExact());
      return;
    case Types.BIGINT:
      statement.setLong(index, text != null ? Long.parseLong(text)
          : whole(value).longValueExact());
      return;
    case Types.DECIMAL:
    case Types.NUMERIC:
      statement.setBigDecimal(index, text != null ? new BigDecimal(text)
          : new BigDecimal(value.toString()));
      return;
    case Types.REAL:
    case Types.FLOAT:
    case Types.DOUBLE:
      statement.setDouble(index, text != null ? Double.parseDouble(text)
          : ((Number) value).doubleValue());
      return;
    case Types.BOOLEAN:
    case Types.BIT:
      statement.setBoolean(index, text != null ? bool(text) : (Boolean) value);
      return;
    case Types.DATE:
      statement.setDate(index, java.sql.Date.valueOf(text != null
          ? LocalDate.parse(withoutZone(text)) : (LocalDate) value));
      return;
    case Types.TIME:
      statement.setTime(index, java.sql.Time.valueOf(text != null
          ? LocalTime.parse(withoutZone(text)) : (LocalTime) value));
      return;
    case Types.TIMESTAMP:
      statement.setTimestamp(index, java.sql.Timestamp.valueOf(text != null
          ? LocalDateTime.parse(withoutZone(text), TIMESTAMP) : timestamp(value)));
      return;
    case Types.TIMESTAMP_WITH_TIMEZONE:
      statement.setObject(index, text != null ? OffsetDateTime.parse(text, TIMESTAMP_ZONED)
          : value);
      return;
    case Types.BINARY:
    case Types.VARBINARY:
      statement.setBytes(index, text != null ? bytea(text) : (byte[]) value);
      return;
    default:
      statement.setObject(index, value instanceof UUID ? value.toString() : value);
    }
  }

  /**
   * A date, time or timestamp without the zone offset pgJDBC sends with each
   * ({@code 2024-01-01 +02}, {@code 10:00:00+02:00}), which a type without zone ignores, as
   * PostgreSQL does.
   */
  static String withoutZone(String text) {
    return ZONE_OFFSET.matcher(text).replaceFirst("");
  }

  private static BigDecimal whole(Object value) {
    return new BigDecimal(value.toString());
  }

  private static LocalDateTime timestamp(Object value) {
    return value instanceof OffsetDateTime t ? t.toLocalDateTime() : (LocalDateTime) value;
  }

  private static boolean bool(String text) {
    switch (text.toLowerCase(Locale.ROOT)) {
    case "t": case "true": case "y": case "yes": case "on": case "1":
      return true;
    case "f": case "false": case "n": case "no": case "off": case "0":
      return false;
    default:
      throw new NumberFormatException(text);
    }
  }

  /** {@code bytea}'s hex form, {@code \x0a1b}. */
  private static byte[] bytea(String text) {
    if (!text.startsWith("\\x") || text.length() % 2 != 0) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    final byte[] bytes = new byte[(text.length() - 2) / 2];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) Integer.parseInt(text.substring(2 + 2 * i, 4 + 2 * i), 16);
    }
    return bytes;
  }

  private static String typeName(int jdbcType) {
    try {
      return java.sql.JDBCType.valueOf(jdbcType).getName().toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return "unknown";
    }
  }
}
