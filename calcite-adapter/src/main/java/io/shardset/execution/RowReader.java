package io.shardset.execution;

import org.apache.calcite.avatica.util.ByteString;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

/**
 * Converts the current row of a shard's ResultSet into a row of Calcite's internal
 * representation.
 *
 * <p>Calcite's generated code casts each field to an exact class, so every kind maps to exactly
 * one: {@code BOOLEAN} Boolean, {@code TINYINT} Byte, {@code SMALLINT} Short, {@code INTEGER}
 * Integer, {@code BIGINT} Long, {@code DECIMAL} BigDecimal, {@code REAL} Float, {@code DOUBLE}
 * Double (both with zero unsigned), {@code STRING} String, {@code DATE} Integer days since
 * 1970-01-01, {@code TIME} Integer milliseconds of the day, {@code TIMESTAMP} Long milliseconds
 * since 1970-01-01T00:00 of the local date-time read as if it were UTC, {@code BINARY}
 * {@link ByteString}. SQL NULL stays null. {@code EXACT_TIMESTAMP} is the LocalDateTime the
 * shard returns, to its last digit, for rows that go to a write rather than to Calcite's code
 * (which would cast it to a Long): the rows an UPDATE moves to another shard, say.
 *
 * <p>Dates and times are read as {@code java.time} values, never through {@code java.sql.Date}:
 * the latter shifts values by the JVM's time zone.
 */
public final class RowReader {
  /** The internal representation a column is read into. */
  public enum ColumnKind {
    BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE, STRING, DATE, TIME,
    TIMESTAMP, EXACT_TIMESTAMP, BINARY
  }

  private final List<ColumnKind> columns;
  private final ColumnGetter[] getters;

  private RowReader(List<ColumnKind> columns) {
    this.columns = List.copyOf(columns);
    this.getters = this.columns.stream().map(RowReader::getter).toArray(ColumnGetter[]::new);
  }

  /** Creates a reader of rows whose columns, in order, have these kinds. */
  public static RowReader of(List<ColumnKind> columns) {
    return new RowReader(Objects.requireNonNull(columns, "columns"));
  }

  /** Returns the kinds of the columns, in order. */
  public List<ColumnKind> columns() {
    return columns;
  }

  /** Reads the current row; the ResultSet's columns 1..n are this reader's columns. */
  public @Nullable Object[] read(ResultSet resultSet) throws SQLException {
    @Nullable Object[] row = new Object[getters.length];
    for (int i = 0; i < getters.length; i++) {
      row[i] = getters[i].get(resultSet, i + 1);
    }
    return row;
  }

  /** Reads one column of the current row. */
  @FunctionalInterface
  private interface ColumnGetter {
    @Nullable Object get(ResultSet resultSet, int column) throws SQLException;
  }

  private static ColumnGetter getter(ColumnKind kind) {
    switch (kind) {
    case BOOLEAN:
      return (rs, i) -> orNull(rs, rs.getBoolean(i));
    case TINYINT:
      return (rs, i) -> orNull(rs, rs.getByte(i));
    case SMALLINT:
      return (rs, i) -> orNull(rs, rs.getShort(i));
    case INTEGER:
      return (rs, i) -> orNull(rs, rs.getInt(i));
    case BIGINT:
      return (rs, i) -> orNull(rs, rs.getLong(i));
    case DECIMAL:
      return ResultSet::getBigDecimal;
    case REAL:
      // Adding +0.0 turns -0.0 into 0.0, which the shards group and compare as one value.
      return (rs, i) -> orNull(rs, rs.getFloat(i) + 0.0f);
    case DOUBLE:
      return (rs, i) -> orNull(rs, rs.getDouble(i) + 0.0d);
    case STRING:
      return ResultSet::getString;
    case DATE:
      return RowReader::readDate;
    case TIME:
      return RowReader::readTime;
    case TIMESTAMP:
      return RowReader::readTimestamp;
    case EXACT_TIMESTAMP:
      return (resultSet, column) -> resultSet.getObject(column, LocalDateTime.class);
    case BINARY:
      return RowReader::readBinary;
    default:
      throw new AssertionError("unknown column kind " + kind);
    }
  }

  /** Returns the boxed primitive value, or null if the column was SQL NULL. */
  private static @Nullable Object orNull(ResultSet resultSet, Object value) throws SQLException {
    return resultSet.wasNull() ? null : value;
  }

  private static @Nullable Integer readDate(ResultSet resultSet, int column) throws SQLException {
    LocalDate date = resultSet.getObject(column, LocalDate.class);
    return date == null ? null : Math.toIntExact(date.toEpochDay());
  }

  private static @Nullable Integer readTime(ResultSet resultSet, int column) throws SQLException {
    LocalTime time = resultSet.getObject(column, LocalTime.class);
    return time == null ? null : (int) (time.toNanoOfDay() / 1_000_000L);
  }

  private static @Nullable Long readTimestamp(ResultSet resultSet, int column)
      throws SQLException {
    LocalDateTime timestamp = resultSet.getObject(column, LocalDateTime.class);
    return timestamp == null ? null : timestamp.toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private static @Nullable ByteString readBinary(ResultSet resultSet, int column)
      throws SQLException {
    byte[] bytes = resultSet.getBytes(column);
    return bytes == null ? null : new ByteString(bytes);
  }
}
