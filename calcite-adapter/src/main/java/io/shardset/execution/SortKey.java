package io.shardset.execution;

/**
 * One sort key of a merge: field index in the row, direction, and where NULLs go.
 *
 * <p>{@code nullsFirst} is absolute: NULLs come first (or last) whatever the direction, as in SQL
 * {@code ORDER BY x DESC NULLS FIRST}.
 *
 * @param field index of the field in the row, from 0
 * @param descending whether larger values come first
 * @param nullsFirst whether NULLs come before every other value
 */
public record SortKey(int field, boolean descending, boolean nullsFirst) {
  public SortKey {
    if (field < 0) {
      throw new IllegalArgumentException("sort key field must not be negative, got " + field);
    }
  }
}
