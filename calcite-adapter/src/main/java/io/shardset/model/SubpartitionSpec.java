package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * A table's {@code subpartitions}: on every shard of the table, its rows are split by ranges of
 * one more column, each range stored as its own physical table.
 *
 * @param column the subpartition column's logical name
 * @param physicalName the pattern of the subpartition tables' names, with {@code {name}}
 *     standing for a range's name
 * @param ranges the ranges in model order, half-open like a range table's
 */
public record SubpartitionSpec(String column, String physicalName, List<Range> ranges) {
  /** The model's field of a table's subpartitions, named in errors about them. */
  public static final String FIELD = "subpartitions";

  /** What a pattern's subpartition name placeholder looks like. */
  public static final String NAME_PLACEHOLDER = "{name}";

  /**
   * One range: the rows whose column lies in {@code [from, to)}, stored in one table per
   * shard. Bounds are the model's raw JSON values, typed once the column's type is known.
   *
   * @param name the subpartition's name, unique in the table
   * @param from the inclusive lower bound, or null for minus infinity
   * @param to the exclusive upper bound, or null for plus infinity
   */
  public record Range(String name, Object from, Object to) {
    public Range {
      Objects.requireNonNull(name, "name");
    }
  }

  public SubpartitionSpec {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(physicalName, "physicalName");
    ranges = List.copyOf(ranges);
    if (!physicalName.contains(NAME_PLACEHOLDER)) {
      throw new IllegalArgumentException("pattern without " + NAME_PLACEHOLDER);
    }
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException("no ranges");
    }
  }

  /** The subpartitions' names, in model order. */
  public List<String> names() {
    return ranges.stream().map(Range::name).toList();
  }

  /** The physical table name of the subpartition at a position. */
  public String physicalName(int subpartition) {
    return physicalName.replace(NAME_PLACEHOLDER, ranges.get(subpartition).name());
  }
}
