package io.shardset.cli.load;

import io.shardset.model.ColumnInfo;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Turns the text of one CSV field into the JDBC value of one column, by the column's logical
 * type; a null text (an empty unquoted field) is SQL NULL.
 */
public final class ValueConverter {
  /** Declared lengths above this (H2's default VARCHAR, PostgreSQL's TEXT) mean unbounded. */
  private static final int MAX_DECLARED_LENGTH = 65_536;
  /** The space that may separate a timestamp's date and time. */
  private static final Pattern FIRST_SPACE = Pattern.compile(" ");

  private final ColumnInfo column;
  private final Kind kind;

  private ValueConverter(ColumnInfo column, Kind kind) {
    this.column = column;
    this.kind = kind;
  }

  /** The converter for a column. */
  public static ValueConverter of(ColumnInfo column) {
    Objects.requireNonNull(column, "column");
    return new ValueConverter(column, Kind.of(column.jdbcType()));
  }

  /** The column's type as error messages spell it, such as {@code DECIMAL(12, 2)}. */
  public String typeName() {
    switch (kind) {
    case DECIMAL:
      return "DECIMAL(" + column.precision() + ", " + column.scale() + ")";
    case TEXT:
      final String name = column.jdbcType() == Types.CHAR || column.jdbcType() == Types.NCHAR
          ? "CHAR" : "VARCHAR";
      return bounded() ? name + "(" + column.precision() + ")" : name;
    default:
      return column.jdbcTypeName();
    }
  }

  /**
   * The value of a field.
   *
   * @param text the field, or null for an empty unquoted field
   * @throws BadValueException naming the column, the text and the type it is not
   */
  public @Nullable Object convert(@Nullable String text) throws BadValueException {
    if (text == null) {
      if (!column.nullable()) {
        throw new BadValueException("column " + column.name()
            + ": empty field (NULL) in a NOT NULL column");
      }
      return null;
    }
    try {
      return kind.parse(this, text);
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      throw notA(text);
    }
  }

  private BadValueException notA(String text) {
    final String type = typeName();
    final String article = "AEIOU".indexOf(type.charAt(0)) >= 0 ? "an " : "a ";
    return new BadValueException("column " + column.name() + ": '" + text + "' is not "
        + article + type);
  }

  private boolean bounded() {
    return column.precision() > 0 && column.precision() <= MAX_DECLARED_LENGTH;
  }

  private Object integer(String text, long min, long max) throws BadValueException {
    final long value = Long.parseLong(text.trim());
    if (value < min || value > max) {
      throw notA(text);
    }
    switch (column.jdbcType()) {
    case Types.BIGINT:
      return value;
    case Types.SMALLINT:
      return (short) value;
    case Types.TINYINT:
      return (byte) value;
    default:
      return (int) value;
    }
  }

  private Object decimal(String text) throws BadValueException {
    final BigDecimal value = new BigDecimal(text.trim());
    if (column.precision() <= 0) {
      return value;
    }
    // Rejected rather than rounded: a load must not change the numbers it is given.
    final BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    final int scale = Math.max(0, stripped.scale());
    final int integerDigits = Math.max(0, stripped.precision() - stripped.scale());
    if (scale > column.scale() || integerDigits > column.precision() - column.scale()) {
      throw notA(text);
    }
    return value;
  }

  private Object text(String text) throws BadValueException {
    if (bounded() && text.codePointCount(0, text.length()) > column.precision()) {
      throw new BadValueException("column " + column.name() + ": '" + text
          + "' is longer than " + typeName());
    }
    return text;
  }

  private Object bool(String text) throws BadValueException {
    switch (text.trim().toLowerCase(Locale.ROOT)) {
    case "true":
    case "t":
    case "1":
      return Boolean.TRUE;
    case "false":
    case "f":
    case "0":
      return Boolean.FALSE;
    default:
      throw notA(text);
    }
  }

  /** Timestamps as ISO date and time, separated by a space or a {@code T}. */
  private static LocalDateTime timestamp(String text) {
    final String trimmed = text.trim();
    if (trimmed.length() == 10) {
      return LocalDate.parse(trimmed).atStartOfDay();
    }
    return LocalDateTime.parse(FIRST_SPACE.matcher(trimmed).replaceFirst("T"));
  }

  /** How a column's values are parsed. */
  private enum Kind {
    TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE, BOOLEAN, DATE, TIME, TIMESTAMP,
    TEXT;

    static Kind of(int jdbcType) {
      switch (jdbcType) {
      case Types.TINYINT:
        return TINYINT;
      case Types.SMALLINT:
        return SMALLINT;
      case Types.INTEGER:
        return INTEGER;
      case Types.BIGINT:
        return BIGINT;
      case Types.DECIMAL:
      case Types.NUMERIC:
        return DECIMAL;
      case Types.REAL:
        return REAL;
      case Types.FLOAT:
      case Types.DOUBLE:
        return DOUBLE;
      case Types.BIT:
      case Types.BOOLEAN:
        return BOOLEAN;
      case Types.DATE:
        return DATE;
      case Types.TIME:
        return TIME;
      case Types.TIMESTAMP:
        return TIMESTAMP;
      default:
        return TEXT;
      }
    }

    Object parse(ValueConverter c, String text) throws BadValueException {
      switch (this) {
      case TINYINT:
        return c.integer(text, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case SMALLINT:
        return c.integer(text, Short.MIN_VALUE, Short.MAX_VALUE);
      case INTEGER:
        return c.integer(text, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case BIGINT:
        return c.integer(text, Long.MIN_VALUE, Long.MAX_VALUE);
      case DECIMAL:
        return c.decimal(text);
      case REAL:
        return Float.parseFloat(text.trim());
      case DOUBLE:
        return Double.parseDouble(text.trim());
      case BOOLEAN:
        return c.bool(text);
      case DATE:
        return LocalDate.parse(text.trim());
      case TIME:
        return LocalTime.parse(text.trim());
      case TIMESTAMP:
        return timestamp(text);
      default:
        return c.text(text);
      }
    }
  }
}
