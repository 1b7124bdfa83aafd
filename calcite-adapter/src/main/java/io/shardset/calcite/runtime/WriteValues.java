package io.shardset.calcite.runtime;

import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * Converts a row from Calcite's internal representation, which generated code produces, to
 * the JDBC values shards take: a DATE is days since the epoch (to {@link LocalDate}), a TIME
 * milliseconds of the day (to {@link LocalTime}), a TIMESTAMP milliseconds since the epoch
 * without time zone (to {@link LocalDateTime}, computed in UTC so no zone shifts it). Numbers,
 * text and booleans are JDBC values already. The converted values also route as the loader's
 * do: the routers normalize a LocalDate and days since the epoch alike.
 */
final class WriteValues {
  private static final long MILLIS_PER_SECOND = 1000L;
  private static final long NANOS_PER_MILLI = 1_000_000L;

  private final int[] jdbcTypes;

  WriteValues(int[] jdbcTypes) {
    this.jdbcTypes = jdbcTypes.clone();
  }

  /** A new array of the row's JDBC values. */
  Object[] toJdbc(Object[] row) {
    final Object[] values = new Object[row.length];
    for (int i = 0; i < row.length; i++) {
      values[i] = convert(jdbcTypes[i], row[i]);
    }
    return values;
  }

  private static Object convert(int jdbcType, Object value) {
    if (value == null) {
      return null;
    }
    switch (jdbcType) {
    case Types.DATE:
      return value instanceof Number days ? LocalDate.ofEpochDay(days.longValue()) : value;
    case Types.TIME:
      return value instanceof Number millis
          ? LocalTime.ofNanoOfDay(millis.longValue() * NANOS_PER_MILLI) : value;
    case Types.TIMESTAMP:
      if (value instanceof Number number) {
        final long millis = number.longValue();
        return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, MILLIS_PER_SECOND),
            (int) (Math.floorMod(millis, MILLIS_PER_SECOND) * NANOS_PER_MILLI),
            ZoneOffset.UTC);
      }
      return value;
    default:
      return value;
    }
  }
}
