package io.shardset.model;

import io.shardset.routing.ChunkMap;
import io.shardset.routing.HashRouter;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import java.util.List;

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
   * @param table the table
   * @param layout the table's columns, as {@link TableLayoutReader} read them
   * @throws ModelException naming the schema, table and field at fault
   */
  public static ShardRouter create(ShardSetModel model, TableSpec table, TableLayout layout) {
    Location location = Location.of(model.schema()).table(table.name());
    if (table.method() == ShardingMethod.DUPLICATED) {
      return null;
    }
    List<KeyColumn> key = table.shardKey().stream()
        .map(name -> keyColumn(location, layout, name)).toList();
    return switch (table.method()) {
    case CONSISTENT_HASH ->
        hashRouter(model, table, key.stream().map(KeyColumn::type).toList());
    case RANGE -> new RangeRouterBuilder(location, table, key.get(0)).build();
    case LIST -> new ListRouterBuilder(location, table, key.get(0)).build();
    case DUPLICATED -> throw new AssertionError("duplicated tables have no router");
    };
  }

  private static KeyColumn keyColumn(Location location, TableLayout layout, String name) {
    int index = layout.columnIndex(name);
    if (index < 0) {
      throw location.error("shardKey", "column '" + name + "' does not exist; columns are "
          + String.join(", ", layout.columnNames()));
    }
    ColumnInfo column = layout.columns().get(index);
    KeyType type = KeyType.forJdbcType(column.jdbcType()).orElseThrow(() ->
        location.error("shardKey", "column '" + column.name() + "' has type "
            + column.jdbcTypeName() + ", which cannot be a shard key; supported: integer and"
            + " decimal types, CHAR, VARCHAR, DATE, TIMESTAMP, BOOLEAN"));
    return new KeyColumn(column, type);
  }

  /**
   * A consistent-hash router over the table's shardspace: the model's chunk map entries of that
   * shardspace, else the default placement of its chunks.
   */
  private static HashRouter hashRouter(ShardSetModel model, TableSpec table,
      List<KeyType> keyTypes) {
    String space = table.shardspace();
    int shardCount = table.shards().size();
    List<ChunkMapSpec> entries = model.chunkMap(space);
    try {
      ChunkMap chunkMap = entries.isEmpty()
          ? ChunkMap.defaultPlacement(model.chunksFor(space), shardCount)
          : ChunkMap.of(entries.stream()
              .map(entry -> new ChunkMap.Entry(entry.from(), entry.to(),
                  table.shards().indexOf(entry.shard())))
              .toList());
      return new HashRouter(keyTypes, chunkMap, shardCount);
    } catch (IllegalArgumentException e) {
      // The parser has checked the chunk map already; this guards models built by hand.
      throw Location.of(model.schema()).error("chunkMap", "shardspace '" + space + "' of"
          + " table '" + table.name() + "': " + e.getMessage());
    }
  }
}
