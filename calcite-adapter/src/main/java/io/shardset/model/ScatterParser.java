package io.shardset.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads the scatter guardrails of a schema's operand and of its tables' entries. */
final class ScatterParser {
  static final String MODE = "scatter";
  static final String MAX_SHARDS = "maxShards";

  private ScatterParser() {
  }

  static ScatterLimits parse(String schema, OperandNode root, List<OperandNode> tableEntries) {
    final ScatterLimit own = limit(root, "schema " + schema);
    final Map<String, ScatterLimit> tables = new HashMap<>();
    for (OperandNode entry : tableEntries) {
      final OperandNode table = entry.named(entry.location()::table);
      final String name = table.requiredName("name");
      final ScatterLimit limit = limit(table, "table " + schema + "." + name);
      if (limit != null) {
        tables.put(name, limit);
      }
    }
    return new ScatterLimits(own == null ? ScatterLimit.NONE : own, tables);
  }

  private static ScatterLimit limit(OperandNode node, String source) {
    final Integer maxShards = node.positiveInt(MAX_SHARDS);
    try {
      return ScatterLimit.of(node.name(MODE), maxShards, source);
    } catch (IllegalArgumentException e) {
      throw node.error(MODE, e.getMessage());
    }
  }
}
