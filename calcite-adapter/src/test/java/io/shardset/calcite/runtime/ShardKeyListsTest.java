package io.shardset.calcite.runtime;

import io.shardset.routing.KeyDomain;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A bind join's keys of a scan's shard key go to the shards that can hold them, and only
 * there; any doubt sends the whole list. */
class ShardKeyListsTest {
  /** Keys below 10 on shard 0, the others on shard 1; 5 could be on either. */
  private static ShardRouter router(boolean stable) {
    return new ShardRouter() {
      @Override public List<KeyType> keyTypes() {
        return List.of(KeyType.NUMBER);
      }

      @Override public int shardCount() {
        return 2;
      }

      @Override public OptionalInt shardOf(List<?> keyValues) {
        throw new UnsupportedOperationException();
      }

      @Override public BitSet shardsFor(List<KeyDomain> perKeyColumn) {
        throw new UnsupportedOperationException();
      }

      @Override public BitSet shardsForKey(Comparable<?> value) {
        final long key = ((Number) value).longValue();
        final BitSet shards = new BitSet();
        if (key == 5 || key < 10) {
          shards.set(0);
        }
        if (key == 5 || key >= 10) {
          shards.set(1);
        }
        return shards;
      }

      @Override public boolean isStable() {
        return stable;
      }
    };
  }

  @Test void eachShardGetsTheKeysItCanHold() {
    final JoinKeyList keys = new JoinKeyList(0, List.of(1L, 12L, 5L, 30L), true);
    assertEquals(List.of(List.of(1L, 5L), List.of(12L, 5L, 30L)),
        ShardKeyLists.split(keys, router(true), 2));
  }

  @Test void aShardThatHoldsNoneGetsAnEmptyList() {
    assertEquals(List.of(List.of(), List.of(12L)),
        ShardKeyLists.split(new JoinKeyList(0, List.of(12L), true), router(true), 2));
  }

  @Test void otherwiseTheWholeListGoesEverywhere() {
    final List<Object> values = List.of(1L, 12L);
    // Not the shard key.
    assertNull(ShardKeyLists.split(new JoinKeyList(0, values, false), router(true), 2));
    // A router that reads placement from a directory.
    assertNull(ShardKeyLists.split(new JoinKeyList(0, values, true), router(false), 2));
    // A router of other shards than the scan's.
    assertNull(ShardKeyLists.split(new JoinKeyList(0, values, true), router(true), 4));
    assertNull(ShardKeyLists.split(new JoinKeyList(0, values, true), null, 2));
  }
}
