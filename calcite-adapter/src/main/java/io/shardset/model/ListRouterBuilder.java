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
 * (shard names) that no value is listed twice.
 */
final class ListRouterBuilder {
  private final Location location;
  private final TableSpec table;
  private final KeyColumn key;

  ListRouterBuilder(Location location, TableSpec table, KeyColumn key) {
    this.location = Objects.requireNonNull(location, "location");
    this.table = Objects.requireNonNull(table, "table");
    this.key = Objects.requireNonNull(key, "key");
  }

  ListRouter build() {
    // Normalized values are canonical (42 and 42.0 are one BigDecimal), so equals finds
    // duplicates.
    Map<Comparable<?>, String> shardByValue = new HashMap<>();
    List<ListRouter.Partition> partitions = new ArrayList<>();
    OptionalInt defaultShard = OptionalInt.empty();
    for (int i = 0; i < table.lists().size(); i++) {
      ListSpec spec = table.lists().get(i);
      int shard = table.shards().indexOf(spec.shard());
      if (spec.isDefault()) {
        defaultShard = OptionalInt.of(shard);
        continue;
      }
      List<Comparable<?>> values = new ArrayList<>();
      for (Object literal : spec.values()) {
        Comparable<?> value = value(location.entry("lists", i), literal);
        String previous = shardByValue.putIfAbsent(value, spec.shard());
        if (previous != null) {
          throw location.error("lists", "value " + key.format(value) + " is listed "
              + (previous.equals(spec.shard())
                  ? "twice for shard '" + previous + "'"
                  : "for shard '" + previous + "' and shard '" + spec.shard() + "'"));
        }
        values.add(value);
      }
      partitions.add(new ListRouter.Partition(shard, values));
    }
    try {
      return new ListRouter(key.type(), partitions, defaultShard, table.shards().size());
    } catch (IllegalArgumentException e) {
      throw location.error("lists", e.getMessage());
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
