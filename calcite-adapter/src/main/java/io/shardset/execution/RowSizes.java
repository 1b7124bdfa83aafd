package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.util.List;

/**
 * A row's size in memory, roughly, for budgets of rows kept in memory (a sort's, a result read
 * ahead of its client): enough to tell kilobytes from gigabytes, not an exact count. A row is
 * an array or list of column values, or one value.
 */
public final class RowSizes {
  private RowSizes() {
  }

  /** The estimated bytes of a row, its references and headers included. */
  public static long of(@Nullable Object row) {
    if (row instanceof Object[] values) {
      long size = 16;
      for (Object value : values) {
        size += 8 + value(value);
      }
      return size;
    }
    if (row instanceof List<?> values) {
      long size = 40;
      for (Object value : values) {
        size += 8 + value(value);
      }
      return size;
    }
    return 16 + value(row);
  }

  private static long value(@Nullable Object value) {
    if (value == null) {
      return 0;
    }
    if (value instanceof String text) {
      return 40 + 2L * text.length();
    }
    if (value instanceof byte[] data) {
      return 16 + data.length;
    }
    if (value instanceof BigDecimal) {
      return 64;
    }
    if (value instanceof List<?> || value instanceof Object[]) {
      return of(value);
    }
    return 24;
  }
}
