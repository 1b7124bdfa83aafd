package io.shardset.bench.shardingsphere;

import io.shardset.routing.ShardRouter;

import org.apache.shardingsphere.sharding.api.sharding.standard.PreciseShardingValue;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link ChunkShardingAlgorithm} against ShardSet's own router over the bench model. */
class ChunkShardingAlgorithmTest {
  private static final List<String> NAMES = List.of("s0", "s1", "s2", "s3");

  @Test void everyKeyGoesToTheShardThatShardSetsRouterNames() throws Exception {
    final ShardRouter router = shardSetRouter();
    final ChunkShardingAlgorithm algorithm = algorithm();
    final int[] perShard = new int[NAMES.size()];
    for (long key = -1_000; key <= 50_000; key++) {
      final int shard = router.shardOf(List.of(key)).orElseThrow();
      perShard[shard]++;
      assertEquals(NAMES.get(shard), algorithm.dataSourceOf(key), "CUSTOMER_ID " + key);
    }
    for (int count : perShard) {
      // Every shard gets its share, so a constant answer could not pass.
      assertEquals(51_001 / 4.0, count, 51_001 * 0.05);
    }
  }

  @Test void preciseShardingAcceptsKeysOfAnyIntegerClass() {
    final ChunkShardingAlgorithm algorithm = algorithm();
    // The spec's worked value: BIGINT 1 is in chunk 34 of 480, which lives on shard 34 mod 4.
    assertEquals("s2", algorithm.doSharding(NAMES, precise(1L)));
    assertEquals("s2", algorithm.doSharding(NAMES, precise(1)));
    assertEquals(algorithm.dataSourceOf(42L), algorithm.doSharding(NAMES, precise(42)));
  }

  @Test void aShardMissingFromTheTargetsIsAnError() {
    final IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> algorithm().doSharding(List.of("s0", "s1"), precise(1L)));
    assertEquals("shard s2 of CUSTOMER_ID = 1 is not among [s0, s1]", e.getMessage());
  }

  private static ChunkShardingAlgorithm algorithm() {
    final Properties props = new Properties();
    props.setProperty(ChunkShardingAlgorithm.DATA_SOURCES, String.join(",", NAMES));
    props.setProperty(ChunkShardingAlgorithm.CHUNKS,
        String.valueOf(ShardingSphereYaml.defaultChunks(NAMES.size())));
    final ChunkShardingAlgorithm algorithm = new ChunkShardingAlgorithm();
    algorithm.init(props);
    return algorithm;
  }

  private static PreciseShardingValue<Comparable<?>> precise(Comparable<?> value) {
    return new PreciseShardingValue<>("ORDERS", "CUSTOMER_ID", null, value);
  }

  /** The ORDERS router of ShardSet opened on the benchmark's own model over empty shards. */
  private static ShardRouter shardSetRouter() throws Exception {
    try (Connection c = MemShards.shardSet(MemShards.create("chunk-algorithm"))) {
      return MemShards.schema(c).table("ORDERS").router();
    }
  }
}
