package io.shardset.model;

import io.shardset.routing.RangeRouter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Builds a range table's router from its {@code ranges}, after checking in the model's terms
 * (entry numbers and shard names) that the ranges neither overlap nor leave gaps.
 */
final class RangeRouterBuilder {
  private final Location location;
  private final String field;
  private final List<RangeSpec> specs;
  private final List<String> targets;
  private final KeyColumn key;

  /** A range with normalized bounds and its position in the model. */
  private record Range(int entry, String shard, Comparable<?> from, Comparable<?> to) {
  }

  RangeRouterBuilder(Location location, TableSpec table, KeyColumn key) {
    this(location, "ranges", table.ranges(), table.shards(), key);
  }

  /**
   * Creates a builder of a router whose "shards" are {@code targets} (a composite table's
   * partition sets, say).
   *
   * @param field the model field holding the ranges, for errors
   * @param specs the ranges, each naming a target in its {@code shard}
   */
  RangeRouterBuilder(Location location, String field, List<RangeSpec> specs,
      List<String> targets, KeyColumn key) {
    this.location = Objects.requireNonNull(location, "location");
    this.field = Objects.requireNonNull(field, "field");
    this.specs = List.copyOf(specs);
    this.targets = List.copyOf(targets);
    this.key = Objects.requireNonNull(key, "key");
  }

  RangeRouter build() {
    List<Range> ranges = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      RangeSpec spec = specs.get(i);
      Location entry = location.entry(field, i);
      Range range = new Range(i + 1, spec.shard(), bound(entry, "from", spec.from()),
          bound(entry, "to", spec.to()));
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
        .map(range -> new RangeRouter.Partition(range.from(), range.to(),
            targets.indexOf(range.shard())))
        .toList();
    try {
      return new RangeRouter(key.type(), partitions, targets.size());
    } catch (IllegalArgumentException e) {
      throw location.error(field, e.getMessage());
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
      throw location.error(field, describe(previous) + " and " + describe(next)
          + " overlap");
    }
    if (key.compare(next.from(), previous.to()) > 0) {
      throw location.error(field, "no range covers [" + key.format(previous.to()) + ", "
          + key.format(next.from()) + "), between " + describe(previous) + " and "
          + describe(next));
    }
  }

  private String describe(Range range) {
    return "entry " + range.entry() + " "
        + (range.from() == null ? "(-∞" : "[" + key.format(range.from())) + ", "
        + (range.to() == null ? "+∞)" : key.format(range.to()) + ")")
        + " on '" + range.shard() + "'";
  }
}
