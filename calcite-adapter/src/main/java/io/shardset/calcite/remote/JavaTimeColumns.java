package io.shardset.calcite.remote;

import org.apache.calcite.avatica.AvaticaResultSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Locale;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;

/**
 * {@code ResultSet.getObject(column, type)} for the {@code java.time} types JDBC 4.2 maps
 * DATE, TIME and TIMESTAMP to, which Avatica's result sets refuse: a DATE as
 * {@link LocalDate}, a TIME as {@link LocalTime}, a TIMESTAMP as {@link LocalDateTime} (the
 * fields the database holds, whatever the time zone), and a TIMESTAMP as the
 * {@link Instant} or {@link OffsetDateTime} at which the session's time zone shows it.
 * Public for the embedded driver's result sets, which live in Calcite's package.
 */
public final class JavaTimeColumns {
  /** Reads a column in UTC, so that its milliseconds are the zoneless fields. */
  private static final TimeZone UTC = TimeZone.getTimeZone(ZoneOffset.UTC);

  private JavaTimeColumns() {
  }

  /** How a result set reads a column as a type this class does not convert to. */
  @FunctionalInterface
  public interface Otherwise {
    @Nullable Object get() throws SQLException;
  }

  /**
   * {@code getObject(column, type)} of a result set in the session's time zone (its
   * calendar's): a {@code java.time} type as this class reads it, any other as
   * {@code otherwise} does.
   */
  public static <T> @Nullable T getObject(AvaticaResultSet rs, int column, Class<T> type,
      Otherwise otherwise) throws SQLException {
    return converts(type) ? get(rs, column, type, rs.getLocalCalendar().getTimeZone())
        : type.cast(otherwise.get());
  }

  /** Whether this class converts to the type. */
  static boolean converts(Class<?> type) {
    return type == LocalDate.class || type == LocalTime.class || type == LocalDateTime.class
        || type == Instant.class || type == OffsetDateTime.class;
  }

  /**
   * A column's value as {@code type}, one {@link #converts} accepts; null for NULL.
   *
   * @param timeZone the session's time zone
   */
  static <T> @Nullable T get(ResultSet rs, int column, Class<T> type, TimeZone timeZone)
      throws SQLException {
    return type.cast(value(rs, column, type, timeZone.toZoneId()));
  }

  private static @Nullable Object value(ResultSet rs, int column, Class<?> type, ZoneId zone)
      throws SQLException {
    final Calendar utc = Calendar.getInstance(UTC, Locale.ROOT);
    if (type == LocalDate.class) {
      final Date date = rs.getDate(column, utc);
      return date == null ? null
          : LocalDate.ofInstant(Instant.ofEpochMilli(date.getTime()), ZoneOffset.UTC);
    } else if (type == LocalTime.class) {
      final Time time = rs.getTime(column, utc);
      return time == null ? null : LocalTime.ofNanoOfDay(TimeUnit.MILLISECONDS.toNanos(
          Math.floorMod(time.getTime(), TimeUnit.DAYS.toMillis(1))));
    }
    final Timestamp timestamp = rs.getTimestamp(column, utc);
    if (timestamp == null) {
      return null;
    }
    final LocalDateTime local = LocalDateTime.ofInstant(timestamp.toInstant(), ZoneOffset.UTC);
    if (type == LocalDateTime.class) {
      return local;
    } else if (type == Instant.class) {
      return local.atZone(zone).toInstant();
    }
    return local.atZone(zone).toOffsetDateTime();
  }
}
