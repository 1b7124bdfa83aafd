package io.shardset.calcite.jdbc;

import org.apache.calcite.avatica.remote.TypedValue;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Text given for a DATE, TIME or TIMESTAMP parameter ({@code setString(1, "2024-01-31
 * 10:00:00.123456")}, as JDBC allows and as ShardSet's remote driver sends a timestamp finer
 * than a millisecond), read as the value it writes: Calcite's generated code takes such a
 * parameter only as days or milliseconds since the epoch, and failed with a
 * ClassCastException on text. A TIMESTAMP finer than a millisecond is kept exactly
 * ({@link io.shardset.calcite.runtime.TimestampParameter}). Text that is no such value fails
 * with SQLState 22007.
 */
final class TimeTextParameters {
  private static final int MAX_SHOWN = 40;

  private TimeTextParameters() {
  }

  /**
   * The values, each text value of a date or time parameter read as that type; the list
   * itself if there is none.
   *
   * @param parameters the statement's parameters, whose JDBC types say which are dates and
   *     times; null when not known, which leaves the values as they are
   * @throws SQLException (22007) for text that is no value of its parameter's type
   */
  static List<TypedValue> read(List<TypedValue> values, @Nullable ParameterMetaData parameters)
      throws SQLException {
    if (parameters == null) {
      return values;
    }
    List<TypedValue> read = values;
    final int count = Math.min(values.size(), parameters.getParameterCount());
    for (int i = 0; i < count; i++) {
      final TypedValue value = values.get(i);
      if (value == null || !(value.value instanceof String text)) {
        continue;
      }
      final int type = parameters.getParameterType(i + 1);
      if (type != Types.DATE && type != Types.TIME && type != Types.TIMESTAMP) {
        continue;
      }
      if (read == values) {
        read = new ArrayList<>(values);
      }
      try {
        read.set(i, of(text.trim(), type));
      } catch (DateTimeParseException e) {
        throw new SQLException("parameter " + (i + 1) + ": '" + shown(text)
            + "' is not a valid " + (type == Types.DATE ? "DATE"
            : type == Types.TIME ? "TIME" : "TIMESTAMP"), "22007");
      }
    }
    return read;
  }

  /** The value {@link JavaTimeParameters#exact} sends for the text's date, time or
   * timestamp. */
  private static TypedValue of(String text, int type) {
    final Temporal value = type == Types.DATE ? LocalDate.parse(text)
        : type == Types.TIME ? LocalTime.parse(text) : timestamp(text);
    return Objects.requireNonNull(JavaTimeParameters.exact(value, type, ZoneOffset.UTC),
        "a date or time parameter's value");
  }

  /** A timestamp as JDBC's escape writes it ({@code 2024-01-31 10:00:00.123456}), as ISO
   * writes it (with a {@code T}), or a date alone (its midnight), as PostgreSQL reads it. */
  private static LocalDateTime timestamp(String text) {
    if (text.length() == 10) {
      return LocalDate.parse(text).atStartOfDay();
    }
    return LocalDateTime.parse(text.length() > 10 && text.charAt(10) == ' '
        ? text.substring(0, 10) + 'T' + text.substring(11) : text);
  }

  private static String shown(String text) {
    return text.length() <= MAX_SHOWN ? text : text.substring(0, MAX_SHOWN) + "...";
  }
}
