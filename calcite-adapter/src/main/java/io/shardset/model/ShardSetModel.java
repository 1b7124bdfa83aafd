package io.shardset.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A schema's validated ShardSet model: its shards, hash chunk layout and tables.
 *
 * @param schema the schema name
 * @param shards the shards in model order
 * @param chunks the number of hash chunks, or null for 120 per shard of a shardspace
 * @param chunkMap explicit placement of hash ranges on shards; empty for default placement
 * @param parallelism how many shards one query may read at once, or null for the default
 * @param tables the tables in model order
 * @param reshard the resharding in progress, or null
 * @param transactions how transactions across shards commit
 * @param writeWaitMillis how long an INSERT of a row whose hash range is moving waits for the
 *     move to end before it fails with SQLState 40001; 0 fails at once
 * @param checkShards when connections check the shards' tables against the model
 * @param scatter how many of a table's shards one statement may reach
 */
public record ShardSetModel(String schema, List<ShardSpec> shards, Integer chunks,
    List<ChunkMapSpec> chunkMap, Integer parallelism, List<TableSpec> tables,
    ReshardSpec reshard, TransactionsSpec transactions, long writeWaitMillis,
    ShardCheck checkShards, ScatterLimits scatter, Sequences sequences) {
  /** Chunks per shard of a shardspace when the model does not set {@code chunks}. */
  public static final int DEFAULT_CHUNKS_PER_SHARD = 120;

  public ShardSetModel {
    Objects.requireNonNull(schema, "schema");
    shards = List.copyOf(shards);
    chunkMap = List.copyOf(chunkMap);
    tables = List.copyOf(tables);
    Objects.requireNonNull(transactions, "transactions");
    Objects.requireNonNull(checkShards, "checkShards");
    Objects.requireNonNull(scatter, "scatter");
    Objects.requireNonNull(sequences, "sequences");
    if (writeWaitMillis < 0) {
      throw new IllegalArgumentException("writeWaitMillis must not be negative: "
          + writeWaitMillis);
    }
  }

  /** A model whose transactions have the default settings and whose writes do not wait for a
   * move. */
  public ShardSetModel(String schema, List<ShardSpec> shards, Integer chunks,
      List<ChunkMapSpec> chunkMap, Integer parallelism, List<TableSpec> tables,
      ReshardSpec reshard) {
    this(schema, shards, chunks, chunkMap, parallelism, tables, reshard,
        TransactionsSpec.DEFAULT, 0, ShardCheck.AT_OPEN, ScatterLimits.NONE, Sequences.NONE);
  }

  /** A model whose writes do not wait for a move. */
  public ShardSetModel(String schema, List<ShardSpec> shards, Integer chunks,
      List<ChunkMapSpec> chunkMap, Integer parallelism, List<TableSpec> tables,
      ReshardSpec reshard, TransactionsSpec transactions) {
    this(schema, shards, chunks, chunkMap, parallelism, tables, reshard, transactions, 0,
        ShardCheck.AT_OPEN, ScatterLimits.NONE, Sequences.NONE);
  }

  /** A model without sequences. */
  public ShardSetModel(String schema, List<ShardSpec> shards, Integer chunks,
      List<ChunkMapSpec> chunkMap, Integer parallelism, List<TableSpec> tables,
      ReshardSpec reshard, TransactionsSpec transactions, long writeWaitMillis,
      ShardCheck checkShards, ScatterLimits scatter) {
    this(schema, shards, chunks, chunkMap, parallelism, tables, reshard, transactions,
        writeWaitMillis, checkShards, scatter, Sequences.NONE);
  }

  /** A model with no resharding in progress. */
  public ShardSetModel(String schema, List<ShardSpec> shards, Integer chunks,
      List<ChunkMapSpec> chunkMap, Integer parallelism, List<TableSpec> tables) {
    this(schema, shards, chunks, chunkMap, parallelism, tables, null);
  }

  /**
   * The shard with this name.
   *
   * @throws IllegalArgumentException if there is none
   */
  public ShardSpec shard(String name) {
    for (ShardSpec shard : shards) {
      if (shard.name().equals(name)) {
        return shard;
      }
    }
    throw unknownShard(name);
  }

  /** The shards by name, in model order, for callers that look up many (a thousand shards'
   * tables look up a million times otherwise); see {@link #shard(Map, String)}. */
  public Map<String, ShardSpec> shardsByName() {
    final Map<String, ShardSpec> byName = new LinkedHashMap<>();
    shards.forEach(shard -> byName.putIfAbsent(shard.name(), shard));
    return byName;
  }

  /**
   * The shard with this name, as {@link #shard(String)} finds it, from a model's
   * {@link #shardsByName()}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public static ShardSpec shard(Map<String, ShardSpec> shardsByName, String name) {
    final ShardSpec shard = shardsByName.get(name);
    if (shard == null) {
      throw unknownShard(name);
    }
    return shard;
  }

  private static IllegalArgumentException unknownShard(String name) {
    return new IllegalArgumentException("unknown shard '" + name + "'");
  }

  /** The shards of a shardspace, in model order; empty if it has none. */
  public List<ShardSpec> shardspace(String space) {
    return shards.stream().filter(shard -> shard.shardspace().equals(space)).toList();
  }

  /** The model's chunk map entries on shards of a shardspace, in model order. */
  public List<ChunkMapSpec> chunkMap(String space) {
    final Map<String, ShardSpec> byName = shardsByName();
    return chunkMap.stream()
        .filter(entry -> shard(byName, entry.shard()).shardspace().equals(space)).toList();
  }

  /**
   * The number of hash chunks of a shardspace: the model's {@code chunks}, else 120 times the
   * number of its shards.
   *
   * @throws IllegalArgumentException if the shardspace has no shards
   */
  public int chunksFor(String space) {
    int shardCount = shardspace(space).size();
    if (shardCount == 0) {
      throw new IllegalArgumentException("shardspace '" + space + "' has no shards");
    }
    return chunks != null ? chunks : DEFAULT_CHUNKS_PER_SHARD * shardCount;
  }
}
