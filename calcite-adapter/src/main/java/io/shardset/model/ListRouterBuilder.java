package io.shardset.model;

import io.shardset.routing.ListRouter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Builds a list table's router from its {@code lists}, after checking in the model's terms
 * (shard names) that no value is listed twice. A composite table's partition sets are built
 * the same way, with sets in the place of shards.
 */
final class ListRouterBuilder {
  private final Location location;
  private final String field;
  private final String noun;
  private final List<ListSpec> lists;
  private final List<String> targets;
  private final KeyColumn key;

  ListRouterBuilder(Location location, TableSpec table, KeyColumn key) {
    this(location, "lists", "shard", table.lists(), table.shards(), key);
  }

  /**
   * Creates a builder of a router whose "shards" are {@code targets}.
   *
   * @param field the model field holding the lists, for errors
   * @param noun what a target is, for errors: "shard" or "set"
   * @param lists the lists, each naming a target in its {@code shard}
   */
  ListRouterBuilder(Location location, String field, String noun, List<ListSpec> lists,
      List<String> targets, KeyColumn key) {
    this.location = Objects.requireNonNull(location, "location");
    this.field = Objects.requireNonNull(field, "field");
    this.noun = Objects.requireNonNull(noun, "noun");
    this.lists = List.copyOf(lists);
    this.targets = List.copyOf(targets);
    this.key = Objects.requireNonNull(key, "key");
  }

  ListRouter build() {
    // Normalized values are canonical (42 and 42.0 are one BigDecimal), so equals finds
    // duplicates.
    Map<Comparable<?>, String> shardByValue = new HashMap<>();
    List<ListRouter.Partition> partitions = new ArrayList<>();
    OptionalInt defaultShard = OptionalInt.empty();
    for (int i = 0; i < lists.size(); i++) {
      ListSpec spec = lists.get(i);
      int shard = targets.indexOf(spec.shard());
      if (spec.isDefault()) {
        defaultShard = OptionalInt.of(shard);
        continue;
      }
      List<Comparable<?>> values = new ArrayList<>();
      for (Object literal : spec.values()) {
        Comparable<?> value = value(location.entry(field, i), literal);
        String previous = shardByValue.putIfAbsent(value, spec.shard());
        if (previous != null) {
          throw location.error(field, "value " + key.format(value) + " is listed "
              + (previous.equals(spec.shard())
                  ? "twice for " + noun + " '" + previous + "'"
                  : "for " + noun + " '" + previous + "' and " + noun + " '" + spec.shard()
                      + "'"));
        }
        values.add(value);
      }
      partitions.add(new ListRouter.Partition(shard, values));
    }
    try {
      return new ListRouter(key.type(), partitions, defaultShard, targets.size());
    } catch (IllegalArgumentException e) {
      throw location.error(field, e.getMessage());
    }
  }

  private Comparable<?> value(Location entry, Object literal) {
    try {
      return key.read(literal);
    } catch (IllegalArgumentException e) {
      throw entry.error("values", e.getMessage());
    }
  }
}
