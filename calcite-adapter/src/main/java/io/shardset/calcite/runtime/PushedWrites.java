package io.shardset.calcite.runtime;

import io.shardset.execution.ShardRun;
import io.shardset.execution.TrackedStatement;
import io.shardset.model.ReshardSpec;
import io.shardset.routing.KeyCondition;
import io.shardset.routing.ShardRouter;
import io.shardset.topology.Placement;
import io.shardset.topology.RowSite;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.TablePlacement;
import io.shardset.write.TableWrite;
import io.shardset.write.WriteFailures;

import org.apache.calcite.DataContext;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntFunction;

/**
 * Runs a {@link PushedWrite} in a statement's transaction: the shards (and subpartition
 * tables) a read with the same WHERE clause would reach each run their UPDATE or DELETE, and
 * the counts add up. A duplicated table's statement runs on every shard, and the count is the
 * first shard's: each shard changes its own copy of the same rows.
 */
final class PushedWrites {
  /** SQLState of a statement canceled on request (query canceled). */
  private static final String CANCELED_STATE = "57014";

  private PushedWrites() {
  }

  /** Runs the write; its shard statements are recorded in the client statement
   * {@code tracked}, if any. */
  static long run(TableWrite write, PushedWrite pushed, DataContext root,
      @Nullable TrackedStatement tracked) throws SQLException {
    final ShardedTable table = write.table();
    final PlannedScan plan = pushed.reach();
    final IntFunction<@Nullable Object> bound = plan.bound(root);
    final BitSet targets;
    try {
      targets = targets(table, plan, root, write.placement());
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new SQLException("table " + table.qualifiedName() + ": " + e.getMessage(),
          WriteFailures.SERIALIZATION_FAILURE, e);
    }
    if (!table.isDuplicated()) {
      plan.guard().check(targets.cardinality(), root, () -> firstText(pushed, targets));
    }
    refuseMovingRanges(write, pushed, targets, bound);
    final BitSet chosen = plan.subpartitions() == null ? pushed.subpartitions()
        : plan.subpartitions().selection(bound::apply);
    if (plan.subpartitions() != null && chosen == null) {
      return 0;
    }
    int sent = 0;
    for (int shard = targets.nextSetBit(0); shard >= 0; shard = targets.nextSetBit(shard + 1)) {
      for (int t = 0; t < pushed.statements().get(shard).size(); t++) {
        sent += chosen == null || chosen.get(t) ? 1 : 0;
      }
    }
    // One statement on one physical table: the shard may commit it as it runs it.
    final boolean alone = sent == 1;
    long count = 0;
    boolean first = true;
    for (int shard = targets.nextSetBit(0); shard >= 0; shard = targets.nextSetBit(shard + 1)) {
      long changed = 0;
      final List<SqlTemplate.Rendered> statements = pushed.statements().get(shard);
      for (int t = 0; t < statements.size(); t++) {
        if (chosen == null || chosen.get(t)) {
          if (tracked != null && tracked.canceled()) {
            // Between shard statements: the transaction rolls back what ran.
            throw new SQLException("Statement canceled", CANCELED_STATE);
          }
          final ShardRun run = tracked == null ? null
              : tracked.startShard(table.shardName(shard), statements.get(t).sql());
          try {
            final long one =
                execute(write, new RowSite(shard, t), statements.get(t), bound, alone);
            if (run != null) {
              run.end(one, "ok");
            }
            changed += one;
          } catch (SQLException | RuntimeException e) {
            if (run != null) {
              run.end(0, "error");
            }
            throw e;
          }
        }
      }
      if (!table.isDuplicated() || first) {
        count += changed;
      }
      first = false;
    }
    return count;
  }

  /** The first statement sent to the first target shard, for a scatter warning. */
  private static String firstText(PushedWrite pushed, BitSet targets) {
    final List<SqlTemplate.Rendered> statements =
        pushed.statements().get(Math.max(0, targets.nextSetBit(0)));
    return statements.isEmpty() ? "" : statements.get(0).sql();
  }

  /** The shards a read with the statement's WHERE clause would reach under the write's
   * placement; every shard of a duplicated table. */
  private static BitSet targets(ShardedTable table, PlannedScan plan, DataContext root,
      Placement placement) {
    if (table.isDuplicated()) {
      final BitSet all = new BitSet();
      all.set(0, table.shardCount());
      return all;
    }
    final ShardReach reach = ShardReach.of(plan, root, null,
        placement.router() == null ? null : placement);
    return reach == null ? new BitSet() : reach.targets();
  }

  private static long execute(TableWrite write, RowSite site, SqlTemplate.Rendered statement,
      IntFunction<@Nullable Object> bound, boolean alone) throws SQLException {
    final Connection only = alone ? write.connectionForOnlyStatement(site.shard()) : null;
    final Connection connection = only != null ? only : write.connection(site.shard());
    try (PreparedStatement p = connection.prepareStatement(statement.sql())) {
      final List<Integer> parameters = statement.parameters();
      for (int i = 0; i < parameters.size(); i++) {
        p.setObject(i + 1, bound.apply(parameters.get(i)));
      }
      write.bound(p, write.site(site));
      return p.executeUpdate();
    } catch (SQLException e) {
      throw WriteFailures.onShard(write.site(site), write.table(), e);
    }
  }

  /**
   * Fails (SQLState 40001) when a resharding in progress moves a hash range whose source or
   * target shard the write reaches, unless the write fixes the shard key to values outside
   * every moving range: the resharding tool copies those rows, and a change made beside it
   * would be lost, or would bring a deleted row back.
   */
  private static void refuseMovingRanges(TableWrite write, PushedWrite pushed, BitSet targets,
      IntFunction<@Nullable Object> bound) throws SQLException {
    final ShardedTable table = write.table();
    final Placement placement = write.placement();
    final ReshardSpec reshard = placement.reshard();
    if (reshard == null || !reshard.carries(table.spec())) {
      return;
    }
    final List<List<@Nullable Object>> points =
        points(pushed.reach().routing().condition(), bound, table.keyColumns().size());
    for (ReshardSpec.MoveSpec move : reshard.moves()) {
      final int source = table.shardIndex(move.source());
      final int target = table.shardIndex(move.target());
      if (!(source >= 0 && targets.get(source) || target >= 0 && targets.get(target))) {
        continue;
      }
      if (points != null && outside(write, points, move)) {
        continue;
      }
      throw new SQLException("table " + table.qualifiedName() + ": the "
          + pushed.target().operation() + " may change rows in hash range [" + move.from()
          + ", " + move.to() + ") of shardspace '" + reshard.shardspace() + "', which is"
          + " moving from " + move.source() + " to " + move.target() + "; retry after the"
          + " move", WriteFailures.SERIALIZATION_FAILURE);
    }
  }

  /** Whether no key of {@code points} lies in the range {@code move} moves. */
  private static boolean outside(TableWrite write, List<List<@Nullable Object>> points,
      ReshardSpec.MoveSpec move) {
    final ShardedTable table = write.table();
    final TablePlacement placements = TablePlacement.of(table);
    final ShardRouter router = write.placement().routerOr(table.router());
    for (List<@Nullable Object> key : points) {
      final Object[] row = new Object[table.layout().columns().size()];
      for (int k = 0; k < key.size(); k++) {
        row[table.keyColumns().get(k)] = key.get(k);
      }
      final OptionalInt shard = router == null ? OptionalInt.empty() : router.shardOf(key);
      if (shard.isEmpty()) {
        continue; // no shard holds the key: nothing to change
      }
      if (move.equals(placements.movingRangeOf(write.placement(), row, shard.getAsInt()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The keys a condition fixes, each a value per routing key column, when it is a key
   * equality or an OR of them; null when it allows other keys.
   */
  static @Nullable List<List<@Nullable Object>> points(KeyCondition condition,
      IntFunction<@Nullable Object> bound, int keySize) {
    if (condition instanceof KeyCondition.Or or) {
      final List<List<@Nullable Object>> all = new ArrayList<>();
      for (KeyCondition term : or.terms()) {
        final List<List<@Nullable Object>> some = points(term, bound, keySize);
        if (some == null) {
          return null;
        }
        all.addAll(some);
      }
      return all;
    }
    final List<KeyCondition> terms = condition instanceof KeyCondition.And and
        ? and.terms() : List.of(condition);
    final Object[] key = new Object[keySize];
    final BitSet fixed = new BitSet();
    for (KeyCondition term : terms) {
      if (term instanceof KeyCondition.Compare compare
          && compare.op() == KeyCondition.Op.EQ) {
        key[compare.keyColumn()] = compare.operand() instanceof KeyCondition.Param param
            ? bound.apply(param.index()) : ((KeyCondition.Literal) compare.operand()).value();
        fixed.set(compare.keyColumn());
      } else if (!(term instanceof KeyCondition.Any)) {
        return null;
      }
    }
    if (fixed.cardinality() != keySize) {
      return null;
    }
    final List<List<@Nullable Object>> one = new ArrayList<>();
    one.add(java.util.Arrays.asList(key));
    return one;
  }
}
