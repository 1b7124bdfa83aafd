package io.shardset.calcite.runtime;

import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * Converts query parameter values, as the client set them, into values a shard's JDBC driver
 * binds as the parameter's SQL type.
 *
 * <p>Calcite passes values on as the client's setter made them: {@code setString} on a
 * BIGINT parameter gives a String, {@code setDate} gives days since the epoch as an Integer.
 * Shard drivers bind by Java class (PostgreSQL rejects a String for an integer column), so
 * each value is converted to the class its declared type expects.
 */
public final class ParameterBinder {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final Map<Integer, SqlTypeName> types;

  /** Creates a binder; {@code types} gives each parameter index its declared SQL type. */
  public ParameterBinder(Map<Integer, SqlTypeName> types) {
    this.types = Map.copyOf(types);
  }

  /** The JDBC value of parameter {@code index}. */
  public @Nullable Object bind(int index, @Nullable Object value) {
    if (value == null) {
      return null;
    }
    final SqlTypeName type = types.getOrDefault(index, SqlTypeName.ANY);
    try {
      return convert(type, value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("parameter ?" + index + " value '" + value + "' ("
          + value.getClass().getSimpleName() + ") is not a valid " + type, e);
    }
  }

  private static Object convert(SqlTypeName type, Object value) {
    switch (type) {
    case TINYINT:
    case SMALLINT:
    case INTEGER:
    case BIGINT:
      return integer(type, value);
    case DECIMAL:
      return decimal(value);
    case REAL:
    case FLOAT:
    case DOUBLE:
      return value instanceof Number n ? n.doubleValue() : Double.parseDouble(value.toString());
    case CHAR:
    case VARCHAR:
      return value.toString();
    case BOOLEAN:
      return value instanceof Boolean ? value : Boolean.parseBoolean(value.toString());
    case DATE:
      return date(value);
    case TIME:
      return time(value);
    case TIMESTAMP:
      return timestamp(value);
    default:
      return value;
    }
  }

  /**
   * An integer parameter's value: the whole number its type holds, as the driver binds that
   * type; else (a fraction, or beyond the type) the number itself, which the shard compares
   * by its value as it compares a literal ({@code K = 42.5} matches no row, {@code K < 99.5}
   * is {@code K <= 99}) and rounds or refuses where it is assigned.
   */
  private static Object integer(SqlTypeName type, Object value) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).intValue();
    }
    if (value instanceof Long whole) {
      return type == SqlTypeName.BIGINT || whole != whole.intValue() ? whole
          : (Object) whole.intValue();
    }
    final BigDecimal number = decimal(value);
    final BigDecimal stripped = number.stripTrailingZeros();
    if (stripped.scale() > 0 || stripped.precision() - stripped.scale() > 19) {
      return number;
    }
    final long whole;
    try {
      whole = stripped.longValueExact();
    } catch (ArithmeticException e) {
      return number;
    }
    return type == SqlTypeName.BIGINT || whole != (int) whole ? whole : (Object) (int) whole;
  }

  private static BigDecimal decimal(Object value) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof Double || value instanceof Float) {
      return BigDecimal.valueOf(((Number) value).doubleValue());
    }
    return new BigDecimal(value.toString().trim());
  }

  private static LocalDate date(Object value) {
    if (value instanceof Long millis) {
      // setTimestamp on a DATE parameter: Calcite passes milliseconds.
      return LocalDate.ofEpochDay(Math.floorDiv(millis, MILLIS_PER_DAY));
    }
    if (value instanceof Number days) {
      // setDate: Calcite passes days since the epoch as an Integer.
      return LocalDate.ofEpochDay(days.longValue());
    }
    if (value instanceof Date date) {
      return date.toLocalDate();
    }
    return value instanceof LocalDate d ? d : LocalDate.parse(value.toString().trim());
  }

  private static LocalTime time(Object value) {
    if (value instanceof Number millis) {
      return LocalTime.ofNanoOfDay(millis.longValue() * 1_000_000L);
    }
    if (value instanceof Time time) {
      return time.toLocalTime();
    }
    return value instanceof LocalTime t ? t : LocalTime.parse(value.toString().trim());
  }

  private static LocalDateTime timestamp(Object value) {
    if (value instanceof Integer days) {
      // setDate on a TIMESTAMP parameter: Calcite passes days since the epoch.
      return LocalDate.ofEpochDay(days).atStartOfDay();
    }
    if (value instanceof Number millis) {
      final long ms = millis.longValue();
      return LocalDateTime.ofEpochSecond(Math.floorDiv(ms, 1000L),
          (int) Math.floorMod(ms, 1000L) * 1_000_000, ZoneOffset.UTC);
    }
    if (value instanceof Timestamp timestamp) {
      return timestamp.toLocalDateTime();
    }
    if (value instanceof LocalDateTime t) {
      return t;
    }
    return LocalDateTime.parse(value.toString().trim().replace(' ', 'T'));
  }
}
