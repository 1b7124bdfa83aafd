package io.shardset.calcite.runtime;

import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A bind join's keys split by the shard that can hold them, where the keys are the scan's
 * shard key: each shard is then sent only its own keys, and a shard that holds none is not
 * asked. A key is sent to every shard its router cannot rule out, so no row that joins is
 * lost.
 */
final class ShardKeyLists {
  private ShardKeyLists() {
  }

  /**
   * Each shard's keys, by shard number; null when the keys are sent whole: the column is not
   * the shard key, the router reads placement from outside (a directory, asked once per key),
   * or a key does not fit the router's key type; or the router numbers other shards than the
   * scan's {@code shards}.
   */
  static @Nullable List<List<Object>> split(JoinKeyList keys, @Nullable ShardRouter router,
      int shards) {
    if (!keys.shardKey() || router == null || !router.isStable()
        || router.keyTypes().size() != 1 || router.shardCount() != shards) {
      return null;
    }
    final List<List<Object>> own = new ArrayList<>(router.shardCount());
    for (int shard = 0; shard < router.shardCount(); shard++) {
      own.add(new ArrayList<>());
    }
    try {
      final KeyType type = router.keyTypes().get(0);
      for (Object key : keys.values()) {
        final BitSet holding = router.shardsForKey(type.normalize(key));
        for (int shard = holding.nextSetBit(0); shard >= 0;
             shard = holding.nextSetBit(shard + 1)) {
          own.get(shard).add(key);
        }
      }
    } catch (IllegalArgumentException e) {
      return null;
    }
    return own;
  }
}
