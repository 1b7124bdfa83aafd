package io.shardset.calcite.jdbc;

import io.shardset.calcite.runtime.TimestampParameter;

import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.remote.TypedValue;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The parameter value Avatica's protocol carries for a {@code java.time} value, which
 * Avatica's client cannot send (it has no representation for them): JDBC 4.2's mapping, in
 * which a {@link LocalDate}, {@link LocalTime} or {@link LocalDateTime} is the DATE, TIME or
 * TIMESTAMP with those fields whatever the time zone, and an {@link Instant},
 * {@link OffsetDateTime} or {@link ZonedDateTime} (a point in time) is the TIMESTAMP the
 * session's time zone shows at that instant, as {@code setTimestamp(Timestamp.from(instant))}
 * gives. The value goes as Avatica's zoneless local form (days, or milliseconds, since the
 * epoch), so no time zone shifts it on the way.
 */
public final class JavaTimeParameters {
  private JavaTimeParameters() {
  }

  /**
   * The value to send for {@code value} as a parameter of JDBC type {@code sqlType}, or null
   * if it is no {@code java.time} value this class converts, or the type is not a date or
   * time type.
   *
   * @param sqlType the {@link Types} code asked for; {@link Types#OTHER} for none, which
   *     sends the value's own type
   * @param zone the session's time zone
   */
  public static @Nullable TypedValue of(Object value, int sqlType, ZoneId zone) {
    final LocalDateTime local = local(value, zone);
    if (local == null) {
      return null;
    }
    final int type = sqlType != Types.OTHER ? sqlType
        : value instanceof LocalDate ? Types.DATE
        : value instanceof LocalTime ? Types.TIME
        : Types.TIMESTAMP;
    switch (type) {
    case Types.DATE:
      return TypedValue.ofLocal(ColumnMetaData.Rep.JAVA_SQL_DATE,
          (int) local.toLocalDate().toEpochDay());
    case Types.TIME:
    case Types.TIME_WITH_TIMEZONE:
      return TypedValue.ofLocal(ColumnMetaData.Rep.JAVA_SQL_TIME,
          (int) TimeUnit.NANOSECONDS.toMillis(local.toLocalTime().toNanoOfDay()));
    case Types.TIMESTAMP:
    case Types.TIMESTAMP_WITH_TIMEZONE:
      return TypedValue.ofLocal(ColumnMetaData.Rep.JAVA_SQL_TIMESTAMP,
          local.toInstant(ZoneOffset.UTC).toEpochMilli());
    default:
      return null;
    }
  }

  /**
   * The parameter values with each {@code java.time} value (which Avatica's site keeps as it
   * is, of representation OBJECT, and Calcite cannot bind) as {@link #of} sends it, a
   * TIMESTAMP finer than a millisecond as a {@link TimestampParameter}; the
   * values themselves when none is, without asking for the zone (which costs a point query
   * a few per cent of its time).
   */
  public static List<TypedValue> sendable(List<TypedValue> values, Supplier<ZoneId> zone) {
    List<TypedValue> sendable = null;
    for (int i = 0; i < values.size(); i++) {
      final TypedValue value = values.get(i);
      final TypedValue time = value == null || !(value.value instanceof Temporal temporal)
          ? null : exact(temporal, Types.OTHER, zone.get());
      if (time != null) {
        if (sendable == null) {
          sendable = new ArrayList<>(values);
        }
        sendable.set(i, time);
      }
    }
    return sendable == null ? values : sendable;
  }

  /**
   * The value {@link #of} sends, except that a TIMESTAMP finer than a millisecond is kept
   * exactly ({@link TimestampParameter}): this runs where the statement executes, and the
   * value goes no further over Avatica's protocol, which has no form for it.
   */
  static @Nullable TypedValue exact(Object value, int sqlType, ZoneId zone) {
    final boolean timestamp = sqlType == Types.TIMESTAMP || sqlType == Types.OTHER
        && !(value instanceof LocalDate) && !(value instanceof LocalTime);
    if (timestamp) {
      final LocalDateTime local = local(value, zone);
      if (local != null && TimestampParameter.isFinerThanMillis(local)) {
        return TypedValue.ofLocal(ColumnMetaData.Rep.OBJECT, new TimestampParameter(local));
      }
    }
    return of(value, sqlType, zone);
  }

  /** The nanoseconds below the millisecond of the TIMESTAMP {@link #of} sends for
   * {@code value}, which it drops; 0 for a value it does not convert. */
  public static int nanosBelowMillis(Object value, ZoneId zone) {
    final LocalDateTime local = local(value, zone);
    return local == null ? 0 : local.getNano() % 1_000_000;
  }

  /** The date and time a value shows in the session's time zone; a time of day is on
   * 1970-01-01, a date at midnight. Null for a value of another class. */
  private static @Nullable LocalDateTime local(Object value, ZoneId zone) {
    if (value instanceof LocalDate date) {
      return date.atStartOfDay();
    } else if (value instanceof LocalTime time) {
      return time.atDate(LocalDate.EPOCH);
    } else if (value instanceof LocalDateTime dateTime) {
      return dateTime;
    } else if (value instanceof Instant instant) {
      return LocalDateTime.ofInstant(instant, zone);
    } else if (value instanceof OffsetDateTime offset) {
      return LocalDateTime.ofInstant(offset.toInstant(), zone);
    } else if (value instanceof ZonedDateTime zoned) {
      return LocalDateTime.ofInstant(zoned.toInstant(), zone);
    }
    return null;
  }
}
