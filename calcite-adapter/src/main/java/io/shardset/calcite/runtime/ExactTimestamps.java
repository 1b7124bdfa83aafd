package io.shardset.calcite.runtime;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The TIMESTAMP values of a write's rows that are finer than a millisecond where Calcite's
 * rows carry milliseconds: a literal of an {@code INSERT ... VALUES}
 * ({@code TIMESTAMP '2024-01-31 10:00:00.123456'}) or a parameter
 * ({@link TimestampParameter}), found when the write is planned. {@link #restore} puts the
 * exact value back into each row before the row goes to its shard, where Calcite's
 * milliseconds would have stored {@code 10:00:00.123}.
 *
 * <p>A field's value is replaced only while it is still the exact value's milliseconds: a
 * value the statement changed (a cast to whole seconds, an expression) is left as it is.
 * Immutable.
 */
public final class ExactTimestamps {
  /** No field of any row. */
  public static final ExactTimestamps NONE = new ExactTimestamps(List.of(), false);

  /** Where a field's exact value comes from. */
  public sealed interface Source permits Literal, Parameter {
    /** The value in an execution, or null when it has none finer than a millisecond. */
    @Nullable LocalDateTime value(DataContext root);
  }

  /** A literal's value. */
  public record Literal(LocalDateTime value) implements Source {
    public Literal {
      Objects.requireNonNull(value, "value");
    }

    @Override public LocalDateTime value(DataContext root) {
      return value;
    }
  }

  /** A query parameter's value ({@code ?index}, counted from 0). */
  public record Parameter(int index) implements Source {
    @Override public @Nullable LocalDateTime value(DataContext root) {
      return TimestampParameter.exact(root, index);
    }
  }

  private final List<Map<Integer, Source>> rows;
  private final boolean everyRow;

  private ExactTimestamps(List<Map<Integer, Source>> rows, boolean everyRow) {
    this.rows = rows.stream().map(Map::copyOf).toList();
    this.everyRow = everyRow;
  }

  /** The exact values of the rows in the order the write's input gives them, the fields of
   * each by position. */
  public static ExactTimestamps perRow(List<Map<Integer, Source>> rows) {
    return rows.stream().allMatch(Map::isEmpty) ? NONE : new ExactTimestamps(rows, false);
  }

  /** The same fields' exact values in every row. */
  public static ExactTimestamps everyRow(Map<Integer, Source> fields) {
    return fields.isEmpty() ? NONE : new ExactTimestamps(List.of(fields), true);
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Whether the values are given row by row ({@link #perRow}). */
  public boolean isPerRow() {
    return !everyRow && !rows.isEmpty();
  }

  /** The fields of each row, in order ({@link #perRow}); one for every row otherwise. */
  public List<Map<Integer, Source>> rows() {
    return rows;
  }

  /** The rows, each a copy with its exact values where it has some (the input's own arrays
   * may be a plan's, shared by its executions). */
  public Enumerable<Object[]> restore(Enumerable<Object[]> input, DataContext root) {
    if (rows.isEmpty()) {
      return input;
    }
    return new AbstractEnumerable<>() {
      @Override public Enumerator<Object[]> enumerator() {
        final Enumerator<Object[]> enumerator = input.enumerator();
        return new Enumerator<>() {
          private int row = -1;

          @Override public Object[] current() {
            return restore(enumerator.current(), row, root);
          }

          @Override public boolean moveNext() {
            final boolean moved = enumerator.moveNext();
            row += moved ? 1 : 0;
            return moved;
          }

          @Override public void reset() {
            enumerator.reset();
            row = -1;
          }

          @Override public void close() {
            enumerator.close();
          }
        };
      }
    };
  }

  private Object[] restore(Object[] row, int index, DataContext root) {
    final Map<Integer, Source> fields = everyRow ? rows.get(0)
        : index < rows.size() ? rows.get(index) : Map.of();
    Object[] restored = row;
    for (Map.Entry<Integer, Source> field : fields.entrySet()) {
      final int position = field.getKey();
      final LocalDateTime exact = field.getValue().value(root);
      if (exact != null && position < row.length && row[position] instanceof Number millis
          && millis.longValue() == TimestampParameter.millis(exact)) {
        if (restored == row) {
          restored = row.clone();
        }
        restored[position] = exact;
      }
    }
    return restored;
  }
}
