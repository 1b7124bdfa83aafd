package io.shardset.calcite.runtime;

import io.shardset.execution.ParallelScan;
import io.shardset.execution.RowReader;
import io.shardset.execution.ScanOptions;
import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardRequest;
import io.shardset.routing.KeyCondition;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.LiveModel;
import io.shardset.topology.Placement;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * Everything needed to run one shard scan, fixed when the statement is prepared: the SQL for
 * each shard, how to pick the target shards, how to bind parameters and read rows.
 *
 * <p>Immutable: a prepared statement shares one instance across executions (and threads).
 */
public final class ShardQuery {
  /** One text per group of shards that share dialect and physical table. */
  public record Text(String sql, List<Integer> parameters) {
    public Text {
      Objects.requireNonNull(sql, "sql");
      parameters = List.copyOf(parameters);
    }
  }

  private final String tableName;
  private final List<String> shardNames;
  private final List<ShardEndpoint> endpoints;
  private final ShardTexts texts;
  private final @Nullable SubpartitionTexts subpartitionTexts;
  private final @Nullable BitSet staticShards;
  private final KeyCondition condition;
  private final @Nullable ShardRouter router;
  private final ParameterBinder binder;
  private final RowReader reader;
  private final @Nullable Integer parallelism;
  private final @Nullable Comparator<@Nullable Object[]> mergeOrder;
  private final boolean anyShardAnswers;
  private final boolean fewRowsExpected;
  private final KeyLists keyLists;
  private final @Nullable LivePlacement live;

  /**
   * Creates a query.
   *
   * @param texts the shards' texts, when they do not depend on query parameters
   * @param subpartitionTexts the shards' texts when query parameters select the subpartitions
   *     they read, else null
   * @param anyShardAnswers whether every shard holds the rows (a duplicated table), so that
   *     when the target shard cannot be reached the others are tried in turn
   * @param fewRowsExpected whether the condition fixes the shard key to a few values, so that
   *     each shard most likely returns few rows (see {@link ScanOptions#fewRowsExpected()})
   * @param keyLists the parameters that list shard keys, of which each shard is sent only its
   *     own
   * @param live where the model file the schema follows places the rows at each execution,
   *     or null when the model cannot change
   */
  public ShardQuery(String tableName, List<String> shardNames, List<ShardEndpoint> endpoints,
      ShardTexts texts, @Nullable SubpartitionTexts subpartitionTexts,
      @Nullable BitSet staticShards,
      KeyCondition condition, @Nullable ShardRouter router, ParameterBinder binder,
      RowReader reader, @Nullable Integer parallelism,
      @Nullable Comparator<@Nullable Object[]> mergeOrder, boolean anyShardAnswers,
      boolean fewRowsExpected, KeyLists keyLists, @Nullable LivePlacement live) {
    this.tableName = Objects.requireNonNull(tableName, "tableName");
    this.shardNames = List.copyOf(shardNames);
    this.endpoints = List.copyOf(endpoints);
    this.texts = Objects.requireNonNull(texts, "texts");
    this.subpartitionTexts = subpartitionTexts;
    this.staticShards = staticShards == null ? null : (BitSet) staticShards.clone();
    this.condition = Objects.requireNonNull(condition, "condition");
    this.router = router;
    this.binder = Objects.requireNonNull(binder, "binder");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.parallelism = parallelism;
    this.mergeOrder = mergeOrder;
    this.anyShardAnswers = anyShardAnswers;
    this.fewRowsExpected = fewRowsExpected;
    this.keyLists = Objects.requireNonNull(keyLists, "keyLists");
    this.live = live;
  }

  /** The shards this execution reaches, from the query parameters when the plan kept them. */
  public BitSet targets(DataContext root) {
    if (staticShards != null) {
      return (BitSet) staticShards.clone();
    }
    try {
      // Route the values the shards will be sent, converted to the parameters' types, so
      // that routing and the shards' own comparison agree.
      return condition.shards(Objects.requireNonNull(router, "router"),
          i -> binder.bind(i, root.get("?" + i)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot route " + tableName + ": " + e.getMessage(),
          e);
    }
  }

  /** Starts this query's scan for one execution. */
  Enumerator<Object[]> open(DataContext root) {
    if (live == null) {
      return open(root, null);
    }
    // The execution runs under one version of the model from start to end, so that the
    // resharding tool can wait for it before a step it would not expect.
    final LiveModel.Ticket ticket = live.enter();
    try {
      final Placement placement = live.of(ticket.snapshot());
      return new TicketEnumerator(open(root, placement.isAsPlanned() ? null : placement),
          ticket);
    } catch (RuntimeException | Error e) {
      ticket.close();
      throw e;
    }
  }

  /** Starts the scan, placed as the plan says or, when not null, as {@code placement} says. */
  private Enumerator<Object[]> open(DataContext root,
      @Nullable Placement placement) {
    if (placement != null && placement.error() != null) {
      throw new IllegalStateException(placement.error());
    }
    final ShardRouter router = placement == null || placement.router() == null
        ? this.router : placement.router();
    final BitSet targets = placement == null || placement.router() == null
        ? targets(root) : liveTargets(root, placement.router());
    final ShardTexts texts = targets.isEmpty() ? null
        : placement == null || placement.moveReaders().isEmpty() ? texts(root)
        : moveTexts(root, placement);
    if (texts == null) {
      return Linq4j.emptyEnumerator();
    }
    final IntFunction<@Nullable Object> bound = i -> binder.bind(i, root.get("?" + i));
    final Map<Integer, Integer> owners = router == null || keyLists.lists().isEmpty()
        ? Map.of() : keyLists.owners(router, bound);
    final List<ShardRequest> requests = new ArrayList<>();
    for (int shard = targets.nextSetBit(0); shard >= 0;
         shard = targets.nextSetBit(shard + 1)) {
      requests.add(request(bound, owners, texts, shard));
    }
    if (anyShardAnswers && requests.size() == 1) {
      final int target = targets.nextSetBit(0);
      final List<ShardRequest> fallbacks = new ArrayList<>();
      for (int shard = 0; shard < endpoints.size(); shard++) {
        if (shard != target && texts.has(shard)) {
          fallbacks.add(request(bound, owners, texts, shard));
        }
      }
      requests.set(0, requests.get(0).withFallbacks(fallbacks));
    }
    final ScanOptions defaults = ScanOptions.defaults(requests.size());
    final ScanOptions options = new ScanOptions(
        parallelism == null ? defaults.parallelism() : Math.min(parallelism, requests.size()),
        defaults.batchSize(), defaults.bufferBatches(), defaults.fetchSize(),
        remainingMillis(root), cancelFlag(root), fewRowsExpected);
    // Sorted shard streams are merged in order; anything else is concatenated as it comes.
    final Enumerator<Object[]> rows = mergeOrder == null || requests.size() == 1
        ? ParallelScan.concat(requests, reader, options)
        : ParallelScan.merge(requests, reader, options, mergeOrder);
    return LoggingEnumerator.wrap(rows, () -> tableName + ": " + targets.cardinality() + " of "
        + endpoints.size() + " shards " + names(targets));
  }

  /** The shards this execution reaches under a router of a newer model. */
  private BitSet liveTargets(DataContext root, ShardRouter liveRouter) {
    if (staticShards != null && staticShards.isEmpty()) {
      return new BitSet(); // no row can match, under any placement
    }
    final BitSet targets;
    try {
      targets = condition.shards(liveRouter, i -> binder.bind(i, root.get("?" + i)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot route " + tableName + ": " + e.getMessage(),
          e);
    }
    if (staticShards != null && staticShards.cardinality() == 1 && targets.cardinality() > 1) {
      // The plan may run work inside its one shard that is wrong over several.
      throw new IllegalStateException("the model now places the rows of " + tableName
          + " this statement reads on " + targets.cardinality() + " shards, where it was"
          + " planned for one; prepare it again on a new connection");
    }
    return targets;
  }

  /** The texts for this execution of shards that read their move tables; null when no
   * shard need be asked. */
  private @Nullable ShardTexts moveTexts(DataContext root,
      Placement placement) {
    BitSet chosen = null;
    if (subpartitionTexts != null) {
      try {
        chosen = subpartitionTexts.selection(i -> binder.bind(i, root.get("?" + i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Cannot route " + tableName
            + " to its subpartitions: " + e.getMessage(), e);
      }
      if (chosen == null) {
        return null;
      }
    }
    return Objects.requireNonNull(live, "live").texts(chosen, placement);
  }

  /** The shards' texts for this execution: those that read the subpartitions its parameter
   * values select, where they decide; null when they select none and no shard need be
   * asked. */
  @Nullable ShardTexts texts(DataContext root) {
    if (subpartitionTexts == null) {
      return texts;
    }
    try {
      return subpartitionTexts.texts(i -> binder.bind(i, root.get("?" + i)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot route " + tableName + " to its subpartitions: "
          + e.getMessage(), e);
    }
  }

  private ShardRequest request(IntFunction<@Nullable Object> bound,
      Map<Integer, Integer> owners, ShardTexts texts, int shard) {
    final Text text = texts.of(shard);
    final Map<Integer, @Nullable Object> own = owners.isEmpty()
        ? Map.of() : keyLists.forShard(shard, owners, bound);
    final List<@Nullable Object> values = new ArrayList<>();
    for (int index : text.parameters()) {
      values.add(own.containsKey(index) ? own.get(index) : bound.apply(index));
    }
    return new ShardRequest(endpoints.get(shard), text.sql(), values);
  }

  /** The number of columns of each row. */
  public int columnCount() {
    return reader.columns().size();
  }

  private List<String> names(BitSet shards) {
    final List<String> names = new ArrayList<>();
    shards.stream().forEach(i -> names.add(shardNames.get(i)));
    return names;
  }

  /** The shard names, in the table's shard order. */
  public List<String> shardNames() {
    return shardNames;
  }

  /** Time left of the statement's query timeout, 0 when it has none. */
  private static long remainingMillis(DataContext root) {
    final Object timeout = DataContext.Variable.TIMEOUT.get(root);
    if (!(timeout instanceof Long millis) || millis <= 0) {
      return 0L;
    }
    final Object start = DataContext.Variable.UTC_TIMESTAMP.get(root);
    final long elapsed = start instanceof Long s ? System.currentTimeMillis() - s : 0L;
    return Math.max(1L, millis - elapsed);
  }

  private static @Nullable AtomicBoolean cancelFlag(DataContext root) {
    final Object flag = DataContext.Variable.CANCEL_FLAG.get(root);
    return flag instanceof AtomicBoolean b ? b : null;
  }
}
