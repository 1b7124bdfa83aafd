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
 * @param lists each list's parameter indexes: disjuncts of one OR, each a bare equality of a
 *     one-column shard key with a parameter used nowhere else in the pushed work
 */
public record KeyLists(List<List<Integer>> lists) {
  /** No key lists: every shard gets every value. */
  public static final KeyLists NONE = new KeyLists(List.of());

  public KeyLists {
    lists = lists.stream().map(List::copyOf).toList();
  }

  /**
   * The shard that holds each listed parameter's value in this execution; a NULL value, or one
   * that no shard accepts, has none. Routed once per execution, for all shards.
   *
   * @param values the bound value of each parameter index
   */
  Map<Integer, Integer> owners(ShardRouter router, IntFunction<@Nullable Object> values) {
    Map<Integer, Integer> owners = new HashMap<>();
    for (List<Integer> list : lists) {
      for (int index : list) {
        Object value = values.apply(index);
        if (value != null) {
          OptionalInt owner = router.shardOf(List.of(value));
          if (owner.isPresent()) {
            owners.put(index, owner.getAsInt());
          }
        }
      }
    }
    return owners;
  }

  /**
   * The values to send shard {@code shard} instead of the bound ones: for each list with at
   * least one key of that shard, its other non-null keys are replaced by that key. A NULL
   * keeps its place: {@code key = NULL} is unknown, not false, which NOT would tell apart.
   * Empty when nothing changes.
   *
   * @param owners the {@link #owners} of this execution
   * @param values the bound value of each parameter index
   */
  Map<Integer, @Nullable Object> forShard(int shard, Map<Integer, Integer> owners,
      IntFunction<@Nullable Object> values) {
    Map<Integer, @Nullable Object> replaced = new HashMap<>();
    for (List<Integer> list : lists) {
      Integer own = list.stream().filter(i -> owners.getOrDefault(i, -1) == shard)
          .findFirst().orElse(null);
      if (own == null) {
        continue;
      }
      Object ownValue = values.apply(own);
      for (int index : list) {
        if (owners.getOrDefault(index, -1) != shard && values.apply(index) != null) {
          replaced.put(index, ownValue);
        }
      }
    }
    return replaced;
  }
}
