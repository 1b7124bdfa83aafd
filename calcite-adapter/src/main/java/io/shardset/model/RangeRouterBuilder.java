package io.shardset.model;

import io.shardset.routing.RangeRouter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Builds a range router from a model's ranges, after checking in the model's terms (entry
 * numbers and shard or subpartition names) that the ranges neither overlap nor leave gaps.
 *
 * <p>It serves a range table's {@code ranges}, whose targets are the table's shards, and a
 * table's {@code subpartitions}, whose targets are its subpartitions.
 */
final class RangeRouterBuilder {
  private final Location location;
  private final KeyColumn key;
  private final List<Entry> entries;
  private final int targetCount;

  /** A range as the model gives it: raw bounds, what it routes to and how to name that. */
  private record Entry(Object from, Object to, int target, String label) {
  }

  /** A range with normalized bounds and its position in the model. */
  private record Range(int entry, String label, Comparable<?> from, Comparable<?> to,
      int target) {
  }

  private RangeRouterBuilder(Location location, KeyColumn key, List<Entry> entries,
      int targetCount) {
    this.location = Objects.requireNonNull(location, "location");
    this.key = Objects.requireNonNull(key, "key");
    this.entries = List.copyOf(entries);
    this.targetCount = targetCount;
  }

  /** A builder for a range table's {@code ranges}; the router's targets are its shards. */
  RangeRouterBuilder(Location location, TableSpec table, KeyColumn key) {
    this(location, key, table.ranges().stream()
        .map(spec -> new Entry(spec.from(), spec.to(), table.shards().indexOf(spec.shard()),
            "on '" + spec.shard() + "'"))
        .toList(), table.shards().size());
  }

  /**
   * A builder for a table's subpartitions; the router's targets are the subpartitions in
   * model order. Errors name the field {@code ranges} (of the subpartitions).
   */
  static RangeRouterBuilder subpartitions(Location location, SubpartitionSpec spec,
      KeyColumn key) {
    final List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < spec.ranges().size(); i++) {
      final SubpartitionSpec.Range range = spec.ranges().get(i);
      entries.add(new Entry(range.from(), range.to(), i, "'" + range.name() + "'"));
    }
    return new RangeRouterBuilder(location, key, entries, entries.size());
  }

  RangeRouter build() {
    List<Range> ranges = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      Entry spec = entries.get(i);
      Location entry = location.entry("ranges", i);
      Range range = new Range(i + 1, spec.label(), bound(entry, "from", spec.from()),
          bound(entry, "to", spec.to()), spec.target());
      if (range.from() != null && range.to() != null
          && key.compare(range.from(), range.to()) >= 0) {
        throw entry.error(null, "'from' (" + key.format(range.from())
            + ") must be less than 'to' (" + key.format(range.to()) + ")");
      }
      ranges.add(range);
    }
    List<Range> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparing(Range::from, Comparator.nullsFirst(key::compare)));
    for (int i = 1; i < sorted.size(); i++) {
      checkAdjacent(sorted.get(i - 1), sorted.get(i));
    }
    List<RangeRouter.Partition> partitions = ranges.stream()
        .map(range -> new RangeRouter.Partition(range.from(), range.to(), range.target()))
        .toList();
    try {
      return new RangeRouter(key.type(), partitions, targetCount);
    } catch (IllegalArgumentException e) {
      throw location.error("ranges", e.getMessage());
    }
  }

  private Comparable<?> bound(Location entry, String field, Object literal) {
    if (literal == null) {
      return null;
    }
    try {
      return key.read(literal);
    } catch (IllegalArgumentException e) {
      throw entry.error(field, e.getMessage());
    }
  }

  /** Fails unless {@code next}, which starts at or after {@code previous}, starts where it ends. */
  private void checkAdjacent(Range previous, Range next) {
    if (previous.to() == null || next.from() == null
        || key.compare(next.from(), previous.to()) < 0) {
      throw location.error("ranges", describe(previous) + " and " + describe(next)
          + " overlap");
    }
    if (key.compare(next.from(), previous.to()) > 0) {
      throw location.error("ranges", "no range covers [" + key.format(previous.to()) + ", "
          + key.format(next.from()) + "), between " + describe(previous) + " and "
          + describe(next));
    }
  }

  private String describe(Range range) {
    return "entry " + range.entry() + " "
        + (range.from() == null ? "(-∞" : "[" + key.format(range.from())) + ", "
        + (range.to() == null ? "+∞)" : key.format(range.to()) + ")")
        + " " + range.label();
  }
}
