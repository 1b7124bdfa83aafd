package io.shardset.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a schema's {@code sequences} and its tables' {@code columnSequences}.
 * <pre>
 * "sequences": [{"name": "ORDER_IDS", "start": 1, "blockSize": 1000}],
 * "tables": [{"name": "ORDERS", ..., "columnSequences": {"ORDER_ID": "ORDER_IDS"}}]
 * </pre>
 */
final class SequencesParser {
  static final String FIELD = "sequences";
  static final String COLUMNS = "columnSequences";
  private static final List<String> KEYS = List.of("name", "start", "blockSize");

  private SequencesParser() {
  }

  static Sequences parse(OperandNode root, List<OperandNode> tableEntries) {
    final List<OperandNode> entries = root.entries(FIELD);
    final List<SequenceSpec> declared = new ArrayList<>();
    final Set<String> names = new HashSet<>();
    for (OperandNode entry : entries == null ? List.<OperandNode>of() : entries) {
      entry.checkKeys(KEYS, Set.of());
      final String name = entry.requiredName("name");
      if (!names.add(name)) {
        throw entry.error("name", "duplicate sequence name '" + name + "'");
      }
      final Long start = entry.integer("start", Long.MIN_VALUE, Long.MAX_VALUE);
      final Integer blockSize = entry.positiveInt("blockSize");
      declared.add(new SequenceSpec(name, start == null ? 1 : start,
          blockSize == null ? SequenceSpec.DEFAULT_BLOCK_SIZE : blockSize));
    }
    final Map<String, Map<String, String>> columns = new HashMap<>();
    for (OperandNode entry : tableEntries) {
      final OperandNode table = entry.named(entry.location()::table);
      if (!table.has(COLUMNS)) {
        continue;
      }
      final OperandNode object = table.object(COLUMNS);
      final Map<String, String> ofTable = new LinkedHashMap<>();
      for (String column : object.keys()) {
        final String sequence = object.name(column);
        if (sequence == null || !names.contains(sequence)) {
          throw object.error(column, "names no sequence of the schema"
              + (names.isEmpty() ? " (it declares none under \"sequences\")"
                  : "; sequences are " + names.stream().sorted().toList()));
        }
        ofTable.put(column, sequence);
      }
      columns.put(table.requiredName("name"), ofTable);
    }
    return new Sequences(declared, columns);
  }
}
