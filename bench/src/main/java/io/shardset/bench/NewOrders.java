package io.shardset.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongToIntFunction;

/**
 * The rows the write workloads insert: orders numbered from just above the generated ones, each
 * number handed out once (so every INSERT of every system has a fresh key, though the systems
 * of a round see the same iteration), the rest of each row as {@link BenchData#order} makes it.
 * One instance serves a whole run: its numbers never repeat, whichever workload asks.
 */
final class NewOrders {
  /** How many customers of each shard {@link #nextOn} chooses from. */
  static final int CUSTOMERS_PER_SHARD = 64;

  private final BenchData data;
  private final List<List<Long>> customersByShard;
  private long next;

  /**
   * New orders of {@code data}, whose shards ({@code shards} of them) {@code shardOf} names
   * for a CUSTOMER_ID.
   */
  NewOrders(BenchData data, int shards, LongToIntFunction shardOf) {
    this.data = Objects.requireNonNull(data, "data");
    this.customersByShard = customersByShard(data, shards, shardOf);
    this.next = data.orders() + 1;
  }

  /** A new order, its customer spread over the shards by the hash of its number. */
  Object[] next() {
    return data.order(next++);
  }

  /** A new order whose customer's rows are on {@code shard}. */
  Object[] nextOn(int shard) {
    final Object[] order = next();
    final List<Long> customers = customersByShard.get(shard);
    // By a hash of the number: w14 asks for shards 0..3 in turn, so the numbers a shard gets
    // are all alike modulo 4 and would reach only a quarter of its customers.
    order[1] = customers.get(Math.floorMod(BenchData.mix((Long) order[0]), customers.size()));
    return order;
  }

  /** The ORDER_ID the next order will have. */
  long peek() {
    return next;
  }

  /**
   * For each shard, the first {@link #CUSTOMERS_PER_SHARD} customers (by number) whose rows it
   * holds.
   */
  private static List<List<Long>> customersByShard(BenchData data, int shards,
      LongToIntFunction shardOf) {
    final List<List<Long>> result = new ArrayList<>();
    for (int i = 0; i < shards; i++) {
      result.add(new ArrayList<>());
    }
    int full = 0;
    for (long customer = 1; customer <= data.customers() && full < shards; customer++) {
      final List<Long> ofShard = result.get(shardOf.applyAsInt(customer));
      if (ofShard.size() < CUSTOMERS_PER_SHARD) {
        ofShard.add(customer);
        if (ofShard.size() == CUSTOMERS_PER_SHARD) {
          full++;
        }
      }
    }
    for (int i = 0; i < shards; i++) {
      if (result.get(i).isEmpty()) {
        throw new IllegalStateException("no customer of the " + data.customers()
            + " has its rows on shard s" + i);
      }
    }
    return result.stream().map(List::copyOf).toList();
  }
}
