package io.shardset.calcite.runtime;

import io.shardset.execution.ParallelScan;
import io.shardset.execution.QueryTimeout;
import io.shardset.execution.ScanOptions;
import io.shardset.execution.ScanServices;
import io.shardset.execution.ShardRequest;
import io.shardset.routing.ShardRouter;
import io.shardset.session.ReadScope;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * Runs one execution of a scan: a request per target shard, sent in parallel, the rows
 * concatenated or merged in order. Inside a transaction the requests read through the
 * transaction's connections, and the rows of a table the transaction locks are read
 * {@code FOR UPDATE}.
 */
final class ScanRunner {
  private ScanRunner() {
  }

  /**
   * Starts the scan of the shards an execution reaches, on the threads of {@code services}.
   *
   * @param keys the key list the rows are kept by, or null; not sent to a scan that locks the
   *     rows it reads ({@code FOR UPDATE} applies to simple queries only), which reads as
   *     planned
   */
  static Enumerator<Object[]> run(PlannedScan plan, DataContext root, ShardReach reach,
      ScanServices services, ReadScope reads, @Nullable JoinKeyList keys) {
    final JoinKeyList keyList = keys == null || reads.locks(plan.shards().tables()) ? null
        : keys;
    if (keyList != null && keyList.values().isEmpty()) {
      // No key: no row of the scan can join, and no shard need be asked.
      return Linq4j.emptyEnumerator();
    }
    final IntFunction<@Nullable Object> bound = plan.bound(root);
    final KeyLists keyLists = plan.routing().keyLists();
    final ShardRouter router = reach.router();
    final Map<Integer, Integer> owners = router == null || keyLists.lists().isEmpty()
        ? Map.of() : keyLists.owners(router, bound);
    final ShardTexts texts = reach.texts();
    final BitSet targets = reach.targets();
    final @Nullable List<List<Object>> ownKeys = keyList == null ? null
        : ShardKeyLists.split(keyList, router, plan.shards().count());
    final List<ShardRequest> requests = new ArrayList<>();
    for (int shard = targets.nextSetBit(0); shard >= 0;
         shard = targets.nextSetBit(shard + 1)) {
      if (ownKeys == null) {
        requests.add(request(plan, bound, owners, texts, shard, reads, keyList));
      } else if (!ownKeys.get(shard).isEmpty()) {
        // A shard that holds none of the keys holds no row that joins: it is not asked.
        requests.add(request(plan, bound, owners, texts, shard, reads,
            keyList.only(ownKeys.get(shard))));
      }
    }
    if (requests.isEmpty()) {
      return Linq4j.emptyEnumerator();
    }
    final ReadPlan read = plan.read();
    if (read.anyShardAnswers() && requests.size() == 1) {
      final int target = targets.nextSetBit(0);
      final List<ShardRequest> fallbacks = new ArrayList<>();
      // A SHARDS hint names the copies it reads; no other copy stands in for them.
      final BitSet allowed = plan.routing().onlyShards();
      for (int shard = 0; shard < plan.shards().count(); shard++) {
        if (shard != target && texts.has(shard) && (allowed == null || allowed.get(shard))) {
          fallbacks.add(request(plan, bound, owners, texts, shard, reads, keyList));
        }
      }
      requests.set(0, requests.get(0).withFallbacks(fallbacks));
    }
    final ScanOptions defaults = ScanOptions.defaults(requests.size(), services);
    final ScanOptions options = new ScanOptions(services,
        read.parallelism() == null ? defaults.parallelism()
            : Math.min(read.parallelism(), requests.size()),
        defaults.batchSize(), defaults.bufferBatches(), defaults.fetchSize(),
        timeout(root), cancelFlag(root), read.fewRowsExpected());
    // Sorted shard streams are merged in order; anything else is concatenated as it comes.
    final Enumerator<Object[]> rows = read.mergeOrder() == null || requests.size() == 1
        ? ParallelScan.concat(requests, read.reader(), options)
        : ParallelScan.merge(requests, read.reader(), options, read.mergeOrder());
    final ScanShards shards = plan.shards();
    return LoggingEnumerator.wrap(rows, () -> shards.tableName() + ": "
        + targets.cardinality() + " of " + shards.count() + " shards "
        + shards.names(targets));
  }

  private static ShardRequest request(PlannedScan plan, IntFunction<@Nullable Object> bound,
      Map<Integer, Integer> owners, ShardTexts texts, int shard, ReadScope reads,
      @Nullable JoinKeyList keys) {
    final ShardTexts.Text text = texts.of(shard);
    final Map<Integer, @Nullable Object> own = owners.isEmpty()
        ? Map.of() : plan.routing().keyLists().forShard(shard, owners, bound);
    final List<@Nullable Object> values = new ArrayList<>();
    for (int index : text.parameters()) {
      values.add(own.containsKey(index) ? own.get(index) : bound.apply(index));
    }
    String sql = text.sql();
    if (keys != null) {
      sql = keys.wrap(sql, plan.read().reader().columns().size());
      values.addAll(keys.values());
    } else if (reads.locks(plan.shards().tables())) {
      if (plan.read().lockable() && text.lockable()) {
        sql = sql + " FOR UPDATE";
      } else {
        reads.couldNotLock(plan.shards().tableName(), plan.read().lockable()
            ? "its SQL on shard " + plan.shards().names().get(shard) + " reads a derived"
                + " table or a union (of subpartitions or a range being moved)"
            : "it groups, aggregates or combines rows");
      }
    }
    return new ShardRequest(reads.endpoint(plan.shards().endpoints().get(shard)), sql,
        values);
  }

  /** The statement's query timeout, and what is left of it since the execution started. */
  static QueryTimeout timeout(DataContext root) {
    final Object timeout = DataContext.Variable.TIMEOUT.get(root);
    if (!(timeout instanceof Long millis) || millis <= 0) {
      return QueryTimeout.NONE;
    }
    final Object start = DataContext.Variable.UTC_TIMESTAMP.get(root);
    final long elapsed = start instanceof Long s ? System.currentTimeMillis() - s : 0L;
    return QueryTimeout.of(millis, elapsed);
  }

  private static @Nullable AtomicBoolean cancelFlag(DataContext root) {
    final Object flag = DataContext.Variable.CANCEL_FLAG.get(root);
    return flag instanceof AtomicBoolean b ? b : null;
  }
}
