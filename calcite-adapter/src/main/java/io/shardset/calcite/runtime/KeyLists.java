package io.shardset.calcite.runtime;

import io.shardset.routing.ShardRouter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/**
 * The query parameters that form lists of shard keys ({@code key IN (?, ?, ...)}), so that
 * each shard can be sent only its own keys of a list.
 *
 * <p>A shard's text keeps its placeholders; the values of the list that belong to other shards
 * are replaced by one of the shard's own. That changes nothing a shard returns, since a row
 * lives on its key's shard and so never matches another shard's key, and the shard looks up
 * only its own keys.
 *
 * @param lists each list's parameter indexes; every one of them appears in the pushed work
 *     only in an equality with a column of a one-column shard key
 */
public record KeyLists(List<List<Integer>> lists) {
  /** No key lists: every shard gets every value. */
  public static final KeyLists NONE = new KeyLists(List.of());

  public KeyLists {
    lists = lists.stream().map(List::copyOf).toList();
  }

  /**
   * The values to send shard {@code shard} instead of the bound ones: for each list with at
   * least one key of that shard, its other keys are replaced by that key. Empty when nothing
   * changes.
   *
   * @param values the bound value of each parameter index
   */
  Map<Integer, @Nullable Object> forShard(int shard, ShardRouter router,
      IntFunction<@Nullable Object> values) {
    Map<Integer, @Nullable Object> replaced = new HashMap<>();
    for (List<Integer> list : lists) {
      Object own = null;
      boolean found = false;
      for (int index : list) {
        Object value = values.apply(index);
        if (value != null && isOn(router, value, shard)) {
          own = value;
          found = true;
          break;
        }
      }
      if (!found) {
        continue;
      }
      for (int index : list) {
        Object value = values.apply(index);
        if (value == null || !isOn(router, value, shard)) {
          replaced.put(index, own);
        }
      }
    }
    return replaced;
  }

  private static boolean isOn(ShardRouter router, Object value, int shard) {
    OptionalInt owner = router.shardOf(List.of(value));
    return owner.isPresent() && owner.getAsInt() == shard;
  }
}
