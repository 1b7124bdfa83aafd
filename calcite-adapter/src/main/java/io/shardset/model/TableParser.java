package io.shardset.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Reads the {@code tables} of a model operand and resolves each table's shards. */
final class TableParser {
  private static final List<String> KEYS = List.of("name", "physicalName", "method", "shardKey",
      "shards", "shardspace", "ranges", "lists", "partitionBy", "directory",
      SubpartitionsParser.FIELD, ReferenceSpec.FIELD, ScatterParser.MODE,
      ScatterParser.MAX_SHARDS, SequencesParser.COLUMNS);
  private static final List<String> RANGE_KEYS = List.of("shard", "from", "to");
  private static final List<String> LIST_KEYS = List.of("shard", "values", "default");

  private final List<ShardSpec> shards;

  TableParser(List<ShardSpec> shards) {
    this.shards = List.copyOf(shards);
  }

  /** The tables in model order, with names unique even ignoring case. */
  List<TableSpec> parse(List<OperandNode> entries) {
    Map<String, String> namesByUpperCase = new HashMap<>();
    List<TableSpec> tables = new ArrayList<>();
    for (OperandNode entry : entries) {
      OperandNode table = entry.named(entry.location()::table);
      table.checkKeys(KEYS, Set.of());
      String name = table.requiredName("name");
      String clash = namesByUpperCase.putIfAbsent(name.toUpperCase(Locale.ROOT), name);
      if (clash != null) {
        throw table.error("name", clash.equals(name)
            ? "duplicate table name '" + name + "'"
            : "table names '" + clash + "' and '" + name + "' differ only in case");
      }
      tables.add(withReferences(parseTable(table, name), table));
    }
    ReferencesParser.checkTables(tables, entries);
    return tables;
  }

  private static TableSpec withReferences(TableSpec spec, OperandNode table) {
    return new TableSpec(spec.name(), spec.physicalName(), spec.method(), spec.shardKey(),
        spec.shards(), spec.shardspace(), spec.ranges(), spec.lists(), spec.partitionBy(),
        spec.directory(), spec.subpartitions(), ReferencesParser.parse(table, spec.name()));
  }

  private TableSpec parseTable(OperandNode table, String name) {
    String physicalName = table.name("physicalName");
    String methodName = table.requiredName("method");
    ShardingMethod method;
    try {
      method = ShardingMethod.fromModelName(methodName);
    } catch (IllegalArgumentException e) {
      throw table.error("method", e.getMessage());
    }
    List<String> shardKey = shardKey(table, method);
    if (method == ShardingMethod.COMPOSITE) {
      return composite(table, name, physicalName == null ? name : physicalName, shardKey);
    }
    absent(table, "partitionBy", ShardingMethod.COMPOSITE, method);
    DirectorySpec directory = method == ShardingMethod.LOOKUP
        ? DirectoryParser.parse(table, shardKey.get(0))
        : absent(table, "directory", ShardingMethod.LOOKUP, method);
    String shardspace = table.name("shardspace");
    List<String> listed = listedShards(table);
    List<String> tableShards;
    String tableShardspace;
    if (method == ShardingMethod.CONSISTENT_HASH) {
      tableShardspace = hashShardspace(table, shardspace, listed);
      tableShards = hashShards(table, tableShardspace, shardspace != null, listed);
    } else {
      tableShardspace = shardspace;
      tableShards = otherShards(table, shardspace, listed);
    }
    List<RangeSpec> ranges = method == ShardingMethod.RANGE
        ? ranges(table, tableShards)
        : absentList(table, "ranges", ShardingMethod.RANGE, method);
    List<ListSpec> lists = method == ShardingMethod.LIST
        ? lists(table, tableShards)
        : absentList(table, "lists", ShardingMethod.LIST, method);
    String tablePhysicalName = physicalName == null ? name : physicalName;
    return new TableSpec(name, tablePhysicalName, method, shardKey, tableShards,
        tableShardspace, ranges, lists, null, directory,
        SubpartitionsParser.parse(table, tablePhysicalName, method));
  }

  /**
   * A composite table: its shards are all shards of its partition sets' shardspaces, so it
   * names neither shards nor a shardspace of its own.
   */
  private TableSpec composite(OperandNode table, String name, String physicalName,
      List<String> shardKey) {
    for (String key : List.of("shards", "shardspace")) {
      if (table.has(key)) {
        throw table.error(key, "a composite table lives on every shard of its partition sets'"
            + " shardspaces, so it has no '" + key + "' of its own");
      }
    }
    absentList(table, "ranges", ShardingMethod.RANGE, ShardingMethod.COMPOSITE);
    absentList(table, "lists", ShardingMethod.LIST, ShardingMethod.COMPOSITE);
    absent(table, "directory", ShardingMethod.LOOKUP, ShardingMethod.COMPOSITE);
    CompositeSpec partitionBy = new PartitionByParser(shards).parse(table, shardKey);
    List<String> spaces = partitionBy.shardspaces();
    List<String> tableShards = names(shards.stream()
        .filter(shard -> spaces.contains(shard.shardspace())).toList());
    return new TableSpec(name, physicalName, ShardingMethod.COMPOSITE, shardKey, tableShards,
        null, List.of(), List.of(), partitionBy, null,
        SubpartitionsParser.parse(table, physicalName, ShardingMethod.COMPOSITE));
  }

  private static List<String> shardKey(OperandNode table, ShardingMethod method) {
    List<String> key = table.names("shardKey");
    if (method == ShardingMethod.DUPLICATED) {
      if (key != null) {
        throw table.error("shardKey", "a duplicated table has no shard key");
      }
      return List.of();
    }
    if (key == null) {
      throw table.error("shardKey", "a value is required for method '" + method.modelName()
          + "'");
    }
    Set<String> seen = new HashSet<>();
    for (String column : key) {
      if (!seen.add(column.toUpperCase(Locale.ROOT))) {
        throw table.error("shardKey", "column '" + column + "' is listed twice");
      }
    }
    if (method != ShardingMethod.CONSISTENT_HASH && method != ShardingMethod.COMPOSITE
        && key.size() != 1) {
      throw table.error("shardKey", "a " + method.modelName()
          + " table has exactly one shard key column, not " + key.size() + " ("
          + String.join(", ", key) + ")");
    }
    return key;
  }

  /** The table's {@code shards}, all known and none twice; null if absent. */
  private List<String> listedShards(OperandNode table) {
    List<String> listed = table.names("shards");
    if (listed == null) {
      return null;
    }
    Set<String> seen = new HashSet<>();
    for (String shard : listed) {
      if (!isShard(shard)) {
        throw table.error("shards", "unknown shard '" + shard + "'");
      }
      if (!seen.add(shard)) {
        throw table.error("shards", "shard '" + shard + "' is listed twice");
      }
    }
    return listed;
  }

  /**
   * The shardspace of a consistent-hash table: its {@code shardspace}, else the one its
   * {@code shards} share, else the default.
   */
  private String hashShardspace(OperandNode table, String shardspace, List<String> listed) {
    if (shardspace != null) {
      return shardspace;
    }
    if (listed == null) {
      return ShardSpec.DEFAULT_SHARDSPACE;
    }
    Set<String> spaces = listed.stream().map(this::shardspaceOf)
        .collect(Collectors.toCollection(LinkedHashSet::new));
    if (spaces.size() > 1) {
      throw table.error("shards", "a consistent-hash table lives in one shardspace, but "
          + listed.stream().map(s -> s + " is in '" + shardspaceOf(s) + "'")
              .collect(Collectors.joining(", ")));
    }
    return spaces.iterator().next();
  }

  /**
   * All shards of the table's shardspace: the chunks of a shardspace are spread over all its
   * shards, and every consistent-hash table of the shardspace shares them.
   */
  private List<String> hashShards(OperandNode table, String shardspace, boolean explicit,
      List<String> listed) {
    List<String> spaceShards = shardsOf(table, shardspace, explicit);
    if (listed != null && !Set.copyOf(listed).equals(Set.copyOf(spaceShards))) {
      throw table.error("shards", "a consistent-hash table spans every shard of its shardspace,"
          + " so 'shards' must be " + String.join(", ", spaceShards) + " (all of shardspace '"
          + shardspace + "') or be left out, not " + String.join(", ", listed));
    }
    return spaceShards;
  }

  /** The shards of a range, list or duplicated table, in model order. */
  private List<String> otherShards(OperandNode table, String shardspace,
      List<String> listed) {
    if (shardspace == null) {
      return listed == null ? names(shards) : inModelOrder(listed);
    }
    List<String> spaceShards = shardsOf(table, shardspace, true);
    if (listed == null) {
      return spaceShards;
    }
    for (String shard : listed) {
      if (!spaceShards.contains(shard)) {
        throw table.error("shards", "shard '" + shard + "' is in shardspace '"
            + shardspaceOf(shard) + "', not in the table's shardspace '" + shardspace + "'");
      }
    }
    return inModelOrder(listed);
  }

  private List<String> shardsOf(OperandNode table, String shardspace, boolean explicit) {
    List<String> spaceShards = names(shards.stream()
        .filter(shard -> shard.shardspace().equals(shardspace)).toList());
    if (spaceShards.isEmpty()) {
      throw table.error("shardspace", "shardspace '" + shardspace + "' has no shards"
          + (explicit ? "" : "; set the table's shardspace or shards"));
    }
    return spaceShards;
  }

  private List<RangeSpec> ranges(OperandNode table, List<String> tableShards) {
    List<RangeSpec> ranges = new ArrayList<>();
    for (OperandNode entry : requiredEntries(table, "ranges")) {
      entry.checkKeys(RANGE_KEYS, Set.of());
      ranges.add(new RangeSpec(entryShard(entry, tableShards), entry.bound("from"),
          entry.bound("to")));
    }
    return ranges;
  }

  private List<ListSpec> lists(OperandNode table, List<String> tableShards) {
    List<ListSpec> lists = new ArrayList<>();
    int defaultEntry = 0;
    for (OperandNode entry : requiredEntries(table, "lists")) {
      entry.checkKeys(LIST_KEYS, Set.of());
      String shard = entryShard(entry, tableShards);
      List<Object> values = entry.scalars("values");
      boolean isDefault = entry.flag("default");
      if (isDefault) {
        if (values != null) {
          throw entry.error(null, "an entry has 'values' or is the default, not both");
        }
        if (defaultEntry != 0) {
          throw entry.error("default", "entry " + defaultEntry
              + " is the default already; a list table has at most one");
        }
        defaultEntry = entry.location().entry();
      } else if (values == null) {
        throw entry.error("values", "a value is required unless the entry is the default");
      }
      lists.add(new ListSpec(shard, values == null ? List.of() : values, isDefault));
    }
    return lists;
  }

  private static List<OperandNode> requiredEntries(OperandNode table, String key) {
    List<OperandNode> entries = table.entries(key);
    if (entries == null || entries.isEmpty()) {
      throw table.error(key, (entries == null ? "a value is required" : "expected entries")
          + " for method '" + (key.equals("ranges") ? "range" : "list") + "'");
    }
    return entries;
  }

  private static <T> List<T> absentList(OperandNode table, String key, ShardingMethod owner,
      ShardingMethod method) {
    absent(table, key, owner, method);
    return List.of();
  }

  /** Fails if the table has a field that only tables of method {@code owner} have. */
  private static <T> T absent(OperandNode table, String key, ShardingMethod owner,
      ShardingMethod method) {
    if (table.has(key)) {
      throw table.error(key, "only " + owner.modelName() + " tables have " + key
          + "; this table's method is '" + method.modelName() + "'");
    }
    return null;
  }

  /** The shard an entry of {@code ranges} or {@code lists} names: one of the table's. */
  private String entryShard(OperandNode entry, List<String> tableShards) {
    String shard = entry.requiredName("shard");
    if (!isShard(shard)) {
      throw entry.error("shard", "unknown shard '" + shard + "'");
    }
    if (!tableShards.contains(shard)) {
      throw entry.error("shard", "shard '" + shard + "' does not hold this table; its shards are "
          + String.join(", ", tableShards));
    }
    return shard;
  }

  private boolean isShard(String name) {
    return shards.stream().anyMatch(shard -> shard.name().equals(name));
  }

  private String shardspaceOf(String name) {
    return shards.stream().filter(shard -> shard.name().equals(name)).findFirst()
        .orElseThrow().shardspace();
  }

  private List<String> inModelOrder(List<String> names) {
    return names(shards.stream().filter(shard -> names.contains(shard.name())).toList());
  }

  private static List<String> names(List<ShardSpec> shards) {
    return shards.stream().map(ShardSpec::name).toList();
  }
}
