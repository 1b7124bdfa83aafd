package io.shardset.routing;

import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;

/** Where rows of one table live, and which shards can hold rows matching a key predicate. */
public interface ShardRouter {
  /** The types of the shard key columns, in key order. */
  List<KeyType> keyTypes();

  /** The number of the table's shards; they are numbered 0 to shardCount - 1. */
  int shardCount();

  /**
   * The shard of a row with these raw key values, one per key column, normalized with
   * {@link #keyTypes()}; empty when no shard accepts the row.
   *
   * @throws IllegalArgumentException if a value cannot be normalized to its column's type
   */
  OptionalInt shardOf(List<?> keyValues);

  /**
   * A superset, as small as the router can tell, of the shards that can hold a row whose key
   * column i lies in {@code perKeyColumn.get(i)}. Returns a new set that the caller may change.
   */
  BitSet shardsFor(List<KeyDomain> perKeyColumn);

  /**
   * The shards that can hold a row of a one-column key equal to {@code value}, normalized
   * with {@link #keyTypes()}: what {@link #shardsFor} answers for that one point, which a
   * router may find faster. Returns a new set that the caller may change.
   */
  default BitSet shardsForKey(Comparable<?> value) {
    return shardsFor(List.of(KeyDomain.point(value)));
  }

  /**
   * Whether this router always places a key on the same shard, so that shards chosen from
   * literals when a query is planned stay right for every later execution of the plan. A
   * router that reads placement from outside (a directory) returns false: its queries route
   * each time they execute.
   */
  default boolean isStable() {
    return true;
  }
}
