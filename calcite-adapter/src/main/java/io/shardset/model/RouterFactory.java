package io.shardset.model;

import io.shardset.routing.ChunkMap;
import io.shardset.routing.CompositeRouter;
import io.shardset.routing.Directory;
import io.shardset.routing.HashRouter;
import io.shardset.routing.KeyType;
import io.shardset.routing.LookupRouter;
import io.shardset.routing.ShardRouter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a table's router from its model and column layout, checking what needs the shard key's
 * type: range bounds and listed values, overlaps, gaps and duplicates.
 *
 * <p>Routers number a table's shards by their position in {@link TableSpec#shards()}.
 */
public final class RouterFactory {
  private RouterFactory() {
  }

  /**
   * The table's router; null for a duplicated table, whose every shard holds every row, so
   * there is nothing to route (queries read it from one shard).
   *
   * @param model the model holding the table
   * @param table the table, of any method but lookup
   * @param layout the table's columns, as {@code io.shardset.topology.TableLayoutReader} read them
   * @throws ModelException naming the schema, table and field at fault
   */
  public static ShardRouter create(ShardSetModel model, TableSpec table, TableLayout layout) {
    return create(model, table, layout, null);
  }

  /**
   * The table's router, as {@link #create(ShardSetModel, TableSpec, TableLayout)}; a lookup
   * table's routes by {@code directory}.
   *
   * @param directory the directory of a lookup table; ignored for other tables
   * @throws ModelException naming the schema, table and field at fault
   */
  public static ShardRouter create(ShardSetModel model, TableSpec table, TableLayout layout,
      Directory directory) {
    Location location = Location.of(model.schema()).table(table.name());
    if (table.method() == ShardingMethod.DUPLICATED) {
      return null;
    }
    List<KeyColumn> key = table.shardKey().stream()
        .map(name -> keyColumn(location, "shardKey", "a shard key", layout, name)).toList();
    List<KeyType> keyTypes = key.stream().map(KeyColumn::type).toList();
    return switch (table.method()) {
    case CONSISTENT_HASH ->
        hashRouter(model, table.shardspace(), table.shards(), keyTypes, table.name());
    case RANGE -> new RangeRouterBuilder(location, table, key.get(0)).build();
    case LIST -> new ListRouterBuilder(location, table, key.get(0)).build();
    case COMPOSITE -> composite(model, location, table, layout, keyTypes);
    case LOOKUP -> lookup(location, table, key.get(0), directory);
    case DUPLICATED -> throw new AssertionError("duplicated tables have no router");
    };
  }

  /**
   * The column of a routing key, of a type routing supports.
   *
   * @param role what the column is, for errors: "a shard key", "a partition column"
   */
  private static KeyColumn keyColumn(Location location, String field, String role,
      TableLayout layout, String name) {
    int index = layout.columnIndex(name);
    if (index < 0) {
      throw location.error(field, "column '" + name + "' does not exist; columns are "
          + String.join(", ", layout.columnNames()));
    }
    ColumnInfo column = layout.columns().get(index);
    KeyType type = KeyType.forJdbcType(column.jdbcType()).orElseThrow(() ->
        location.error(field, "column '" + column.name() + "' has type "
            + column.jdbcTypeName() + ", which cannot be " + role + "; supported: integer and"
            + " decimal types, CHAR, VARCHAR, DATE, TIMESTAMP, BOOLEAN"));
    return new KeyColumn(column, type);
  }

  /** The model's chunk map entries with their shards numbered as {@code shards} lists them
   * (-1 for a shard not in it, which the router rejects), looked up by name: a resharded model
   * has an entry per chunk. */
  private static List<ChunkMap.Entry> explicitEntries(List<ChunkMapSpec> entries,
      List<String> shards) {
    Map<String, Integer> indexes = new HashMap<>();
    for (int i = 0; i < shards.size(); i++) {
      indexes.putIfAbsent(shards.get(i), i);
    }
    return entries.stream()
        .map(entry -> new ChunkMap.Entry(entry.from(), entry.to(),
            indexes.getOrDefault(entry.shard(), -1)))
        .toList();
  }

  /**
   * A consistent-hash router over a shardspace: the model's chunk map entries of that
   * shardspace, else the default placement of its chunks.
   *
   * @param shards the shardspace's shards, in model order; the router numbers them so
   */
  private static HashRouter hashRouter(ShardSetModel model, String space, List<String> shards,
      List<KeyType> keyTypes, String tableName) {
    int shardCount = shards.size();
    List<ChunkMapSpec> entries = model.chunkMap(space);
    try {
      ChunkMap chunkMap = entries.isEmpty()
          ? ChunkMap.defaultPlacement(model.chunksFor(space), shardCount)
          : ChunkMap.of(explicitEntries(entries, shards));
      return new HashRouter(keyTypes, chunkMap, shardCount);
    } catch (IllegalArgumentException e) {
      // The parser has checked the chunk map already; this guards models built by hand.
      throw Location.of(model.schema()).error("chunkMap", "shardspace '" + space + "' of"
          + " table '" + tableName + "': " + e.getMessage());
    }
  }

  /**
   * A composite table's router: the partition column's list or range picks a set, the set's
   * shardspace hashes the shard key with its own chunk layout.
   */
  private static CompositeRouter composite(ShardSetModel model, Location location,
      TableSpec table, TableLayout layout, List<KeyType> shardKeyTypes) {
    CompositeSpec partitionBy = table.partitionBy();
    KeyColumn column = keyColumn(location, "partitionBy.column", "a partition column", layout,
        partitionBy.column());
    List<PartitionSetSpec> sets = partitionBy.sets();
    List<String> setNames = sets.stream().map(PartitionSetSpec::name).toList();
    ShardRouter setRouter = partitionBy.method() == ShardingMethod.LIST
        ? new ListRouterBuilder(location, "partitionBy.sets", "set",
            sets.stream().map(set -> new ListSpec(set.name(), set.values(), set.isDefault()))
                .toList(),
            setNames, column).build()
        : new RangeRouterBuilder(location, "partitionBy.sets",
            sets.stream().map(set -> new RangeSpec(set.name(), set.from(), set.to())).toList(),
            setNames, column).build();
    List<String> spaceNames = partitionBy.shardspaces();
    List<CompositeRouter.Space> spaces = new ArrayList<>();
    for (String space : spaceNames) {
      List<String> shards = model.shardspace(space).stream().map(ShardSpec::name).toList();
      spaces.add(new CompositeRouter.Space(
          hashRouter(model, space, shards, shardKeyTypes, table.name()),
          shards.stream().map(table.shards()::indexOf).toList()));
    }
    List<Integer> spaceOfSet = sets.stream()
        .map(set -> spaceNames.indexOf(set.shardspace())).toList();
    return new CompositeRouter(setRouter, spaceOfSet, spaces, table.shards().size());
  }

  private static LookupRouter lookup(Location location, TableSpec table, KeyColumn key,
      Directory directory) {
    if (key.type() != KeyType.NUMBER && key.type() != KeyType.STRING
        && key.type() != KeyType.CHAR) {
      throw location.error("shardKey", "column '" + key.column().name() + "' has type "
          + key.column().jdbcTypeName() + ", which cannot be a lookup key; supported: integer"
          + " and decimal types, CHAR, VARCHAR");
    }
    if (directory == null) {
      throw new IllegalArgumentException("lookup table " + table.name() + " needs a directory");
    }
    return new LookupRouter(table.name(), key.type(), directory, table.shards());
  }
}
