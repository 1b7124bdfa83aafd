package io.shardset.bench.shardingsphere;

import io.shardset.routing.ChunkMap;
import io.shardset.routing.HashRouter;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.RangeShardingValue;
import org.apache.shardingsphere.sharding.api.sharding.standard.StandardShardingAlgorithm;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;

/**
 * ShardingSphere's database sharding by ShardSet's consistent hash: CRC-32 of the key's
 * canonical bytes, then the chunk, then the shard, computed by ShardSet's own
 * {@link HashRouter} over the default chunk placement (chunk c on shard c mod N).
 *
 * <p>ShardingSphere creates it by class name (a {@code CLASS_BASED} algorithm) and passes its
 * properties to {@link #init}: {@value #DATA_SOURCES} (the data source names of shards 0, 1,
 * ..., comma-separated), {@value #CHUNKS} (the model's number of chunks) and, optionally,
 * {@value #KEY_TYPE} (a {@link KeyType} name, default NUMBER).
 */
public final class ChunkShardingAlgorithm implements StandardShardingAlgorithm<Comparable<?>> {
  /** Property: the data source names of shards 0, 1, ..., comma-separated. */
  public static final String DATA_SOURCES = "data-sources";
  /** Property: the number of chunks of the hash space. */
  public static final String CHUNKS = "chunks";
  /** Property: the {@link KeyType} of the one sharding column. */
  public static final String KEY_TYPE = "key-type";

  private List<String> dataSources = List.of();
  private ShardRouter router;

  @Override public void init(Properties props) {
    final String names = required(props, DATA_SOURCES);
    final List<String> parsed = new ArrayList<>();
    for (String name : names.split(",")) {
      parsed.add(name.trim());
    }
    final int chunks = Integer.parseInt(required(props, CHUNKS).trim());
    final KeyType keyType = KeyType.valueOf(props.getProperty(KEY_TYPE, KeyType.NUMBER.name()));
    dataSources = List.copyOf(parsed);
    router = new HashRouter(List.of(keyType),
        ChunkMap.defaultPlacement(chunks, dataSources.size()), dataSources.size());
  }

  /** The data source of the shard that ShardSet's router names for the key. */
  @Override public String doSharding(Collection<String> availableTargetNames,
      PreciseShardingValue<Comparable<?>> shardingValue) {
    final String target = dataSourceOf(shardingValue.getValue());
    if (!availableTargetNames.contains(target)) {
      throw new IllegalStateException("shard " + target + " of " + shardingValue.getColumnName()
          + " = " + shardingValue.getValue() + " is not among " + availableTargetNames);
    }
    return target;
  }

  /** Every shard: a hash spreads any range of keys over all of them. */
  @Override public Collection<String> doSharding(Collection<String> availableTargetNames,
      RangeShardingValue<Comparable<?>> shardingValue) {
    return availableTargetNames;
  }

  /** The data source name of the shard holding rows whose key is {@code key}. */
  public String dataSourceOf(Object key) {
    if (router == null) {
      throw new IllegalStateException("init was not called");
    }
    final List<Object> keyValues = new ArrayList<>(1);
    keyValues.add(key);
    return dataSources.get(router.shardOf(keyValues).orElseThrow());
  }

  @Override public String getType() {
    return "SHARDSET_CHUNK";
  }

  private static String required(Properties props, String name) {
    final String value = props.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("ChunkShardingAlgorithm needs the property " + name);
    }
    return value;
  }
}
