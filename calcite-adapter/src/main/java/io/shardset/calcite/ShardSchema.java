package io.shardset.calcite;

import io.shardset.model.ShardSetModel;
import io.shardset.topology.KnownLayouts;
import io.shardset.topology.KnownValues;
import io.shardset.topology.LiveSource;
import io.shardset.topology.ShardKey;
import io.shardset.topology.ShardedTableResolver;

import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A schema of sharded tables, built from a validated model and the shards' metadata. */
public final class ShardSchema extends AbstractSchema {
  /** The dialects this process has read from shards, for building schemas while a shard is
   * down (see {@link JdbcShardMetadata}); created here only, so that one owner can take it
   * over. */
  private static final KnownValues<ShardKey, SqlDialect> KNOWN_DIALECTS = new KnownValues<>();

  private final Map<String, Table> tables;

  private ShardSchema(Map<String, Table> tables) {
    this.tables = Map.copyOf(tables);
  }

  /**
   * Reads every table's layout from its shards, checks it, and builds the schema. A shard that
   * cannot be reached contributes the layout an earlier connection read (see
   * {@link JdbcShardMetadata}).
   */
  public static ShardSchema create(ShardSetModel model) {
    return create(model, null);
  }

  /**
   * Builds the schema as {@link #create(ShardSetModel)} does, for a model that its model file
   * may change while the schema is in use.
   *
   * @param live the model file the schema follows, or null
   */
  public static ShardSchema create(ShardSetModel model, @Nullable LiveSource live) {
    try (ShardMetadata metadata =
             new JdbcShardMetadata(model, KnownLayouts.PROCESS, KNOWN_DIALECTS)) {
      return create(model, live, metadata);
    }
  }

  /**
   * Builds the schema from what {@code metadata} says of the shards; the caller closes it.
   *
   * @param live the model file the schema follows, or null
   */
  static ShardSchema create(ShardSetModel model, @Nullable LiveSource live,
      ShardMetadata metadata) {
    final Map<String, Table> tables = new LinkedHashMap<>();
    ShardedTableResolver.resolve(model, live, metadata).forEach((name, table) -> {
      final List<SqlDialect> dialects = new ArrayList<>();
      for (String shard : table.shardNames()) {
        dialects.add(metadata.dialect(model.shard(shard)));
      }
      tables.put(name, new ShardTable(table, dialects));
    });
    return new ShardSchema(tables);
  }

  /** The sharded table of that name.
   *
   * @throws IllegalArgumentException if the schema has no such table */
  public ShardTable table(String name) {
    final Table table = tables.get(name);
    if (table == null) {
      throw new IllegalArgumentException("no table '" + name + "'; tables are "
          + tables.keySet());
    }
    return (ShardTable) table;
  }

  @Override protected Map<String, Table> getTableMap() {
    return tables;
  }
}
