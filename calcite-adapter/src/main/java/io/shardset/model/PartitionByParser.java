package io.shardset.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads a composite table's {@code partitionBy}: the partition column, the partitioning
 * method, and partition sets with unique names, each in a shardspace that has shards.
 *
 * <p>Checks that need the partition column's type (values listed twice, overlapping or gapped
 * ranges) come later, when the table's columns are known (see {@link RouterFactory}).
 */
final class PartitionByParser {
  private static final List<String> KEYS = List.of("column", "method", "sets");
  private static final List<String> LIST_SET_KEYS =
      List.of("name", "values", "default", "shardspace");
  private static final List<String> RANGE_SET_KEYS = List.of("name", "from", "to", "shardspace");

  private final List<String> shardspaces;

  PartitionByParser(List<ShardSpec> shards) {
    this.shardspaces = List.copyOf(shards.stream().map(ShardSpec::shardspace)
        .collect(Collectors.toCollection(LinkedHashSet::new)));
  }

  CompositeSpec parse(OperandNode table, List<String> shardKey) {
    OperandNode partitionBy = table.object("partitionBy");
    if (partitionBy == null) {
      throw table.error("partitionBy", "a value is required for method 'composite'");
    }
    partitionBy.checkKeys(KEYS, Set.of());
    String column = partitionBy.requiredName("column");
    for (String key : shardKey) {
      if (key.equalsIgnoreCase(column)) {
        throw partitionBy.error("column", "column '" + column + "' is also in the shardKey;"
            + " the partition column picks the shardspace, the shard key the shard within it");
      }
    }
    String methodName = partitionBy.requiredName("method");
    ShardingMethod method;
    if (methodName.equals("list")) {
      method = ShardingMethod.LIST;
    } else if (methodName.equals("range")) {
      method = ShardingMethod.RANGE;
    } else {
      throw partitionBy.error("method", "unknown method '" + methodName
          + "'; expected list or range");
    }
    List<OperandNode> entries = partitionBy.entries("sets");
    if (entries == null || entries.isEmpty()) {
      throw partitionBy.error("sets", entries == null ? "a value is required"
          : "expected entries");
    }
    List<PartitionSetSpec> sets = new ArrayList<>();
    Map<String, Integer> entryByName = new HashMap<>();
    int defaultEntry = 0;
    for (OperandNode entry : entries) {
      String name = entry.requiredName("name");
      Integer previous = entryByName.putIfAbsent(name.toUpperCase(Locale.ROOT),
          entry.location().entry());
      if (previous != null) {
        throw entry.error("name", "entry " + previous + " has the set name '" + name
            + "' already");
      }
      String shardspace = shardspace(entry);
      if (method == ShardingMethod.RANGE) {
        entry.checkKeys(RANGE_SET_KEYS, Set.of());
        sets.add(PartitionSetSpec.range(name, shardspace, entry.bound("from"),
            entry.bound("to")));
        continue;
      }
      entry.checkKeys(LIST_SET_KEYS, Set.of());
      List<Object> values = entry.scalars("values");
      boolean isDefault = entry.flag("default");
      if (isDefault) {
        if (values != null) {
          throw entry.error(null, "a set has 'values' or is the default, not both");
        }
        if (defaultEntry != 0) {
          throw entry.error("default", "entry " + defaultEntry
              + " is the default already; a composite table has at most one");
        }
        defaultEntry = entry.location().entry();
      } else if (values == null) {
        throw entry.error("values", "a value is required unless the set is the default");
      }
      sets.add(PartitionSetSpec.list(name, shardspace, values == null ? List.of() : values,
          isDefault));
    }
    return new CompositeSpec(column, method, sets);
  }

  private String shardspace(OperandNode entry) {
    String shardspace = entry.requiredName("shardspace");
    if (!shardspaces.contains(shardspace)) {
      String suggestion = Suggestions.closest(shardspace, shardspaces);
      throw entry.error("shardspace", "unknown shardspace '" + shardspace + "'"
          + (suggestion != null ? "; did you mean '" + suggestion + "'?"
              : "; shards are in " + String.join(", ", shardspaces)));
    }
    return shardspace;
  }
}
