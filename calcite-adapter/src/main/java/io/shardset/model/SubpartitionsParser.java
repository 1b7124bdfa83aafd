package io.shardset.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a table's {@code subpartitions} object. Errors name the field inside it, such as
 * {@code subpartitions.column} or {@code subpartitions.ranges}.
 */
final class SubpartitionsParser {
  static final String FIELD = SubpartitionSpec.FIELD;
  private static final List<String> KEYS = List.of("column", "physicalName", "ranges");
  private static final List<String> RANGE_KEYS = List.of("name", "from", "to");

  private SubpartitionsParser() {
  }

  /**
   * The table's subpartitions, or null if it declares none.
   *
   * @param table the table's entry
   * @param physicalName the table's physical name, which the default pattern extends
   * @param method the table's sharding method
   */
  static SubpartitionSpec parse(OperandNode table, String physicalName,
      ShardingMethod method) {
    final OperandNode node = table.object(FIELD);
    if (node == null) {
      return null;
    }
    if (method == ShardingMethod.DUPLICATED) {
      throw table.error(FIELD, "a duplicated table has no subpartitions: each shard holds all"
          + " its rows in one table");
    }
    return parse(node, physicalName);
  }

  private static SubpartitionSpec parse(OperandNode node, String physicalName) {
    node.checkKeys(KEYS, Set.of());
    final String column = node.requiredName("column");
    final String pattern = node.name("physicalName");
    if (pattern != null && !pattern.contains(SubpartitionSpec.NAME_PLACEHOLDER)) {
      throw node.error("physicalName", "pattern '" + pattern + "' does not contain "
          + SubpartitionSpec.NAME_PLACEHOLDER + ", so the subpartitions would share one table");
    }
    final List<OperandNode> entries = node.entries("ranges");
    if (entries == null || entries.isEmpty()) {
      throw node.error("ranges", entries == null ? "a value is required" : "expected entries");
    }
    final Map<String, String> namesByUpperCase = new HashMap<>();
    final List<SubpartitionSpec.Range> ranges = new ArrayList<>();
    for (OperandNode entry : entries) {
      entry.checkKeys(RANGE_KEYS, Set.of());
      final String name = entry.requiredName("name");
      final String clash = namesByUpperCase.putIfAbsent(name.toUpperCase(Locale.ROOT), name);
      if (clash != null) {
        throw entry.error("name", clash.equals(name)
            ? "duplicate subpartition name '" + name + "'"
            : "subpartition names '" + clash + "' and '" + name + "' differ only in case");
      }
      ranges.add(new SubpartitionSpec.Range(name, entry.bound("from"), entry.bound("to")));
    }
    return new SubpartitionSpec(column,
        pattern == null ? physicalName + "_" + SubpartitionSpec.NAME_PLACEHOLDER : pattern,
        ranges);
  }
}
