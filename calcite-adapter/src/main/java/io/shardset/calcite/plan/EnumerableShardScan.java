package io.shardset.calcite.plan;

import io.shardset.calcite.OpenScans;
import io.shardset.calcite.runtime.BindColumn;
import io.shardset.calcite.runtime.ShardEnumerables;
import io.shardset.calcite.runtime.ShardQuery;
import io.shardset.session.Sessions;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/**
 * Executable twin of {@link ShardScan}: sends the pushed SQL to the target shards in parallel
 * and streams the merged rows.
 *
 * <p>Code generation only stashes one immutable {@link ShardQuery} and calls
 * {@link ShardEnumerables#execute}; everything else is plain Java.
 */
public final class EnumerableShardScan extends AbstractShardScan implements EnumerableRel {
  /** The column a bind join filters by its other side's keys, or null. */
  private final @Nullable BindColumn bind;
  /** Whether the rows go straight to a write, which takes TIMESTAMP values to their last
   * digit, rather than to Calcite's code, which takes milliseconds. */
  private final boolean exactTimestamps;

  private EnumerableShardScan(RelOptCluster cluster, RelTraitSet traitSet,
      ShardScanSpec spec, @Nullable BindColumn bind, boolean exactTimestamps) {
    super(cluster, traitSet, spec);
    this.bind = bind;
    this.exactTimestamps = exactTimestamps;
  }

  static EnumerableShardScan create(RelOptCluster cluster, RelTraitSet traitSet,
      ShardScanSpec spec) {
    return new EnumerableShardScan(cluster, traitSet, spec, null, false);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    assert inputs.isEmpty();
    return new EnumerableShardScan(getCluster(), traitSet, spec, bind, exactTimestamps);
  }

  /** This scan, its rows kept by the keys of a bind join's other side (see
   * {@link BindJoins}). */
  EnumerableShardScan withBind(BindColumn bind) {
    return new EnumerableShardScan(getCluster(), getTraitSet(), spec, bind, exactTimestamps);
  }

  /** Whether TIMESTAMP columns are read as the shards hold them ({@link #forWrite}). */
  boolean readsExactTimestamps() {
    return exactTimestamps;
  }

  /**
   * This scan as the direct input of a write, whose rows no Calcite code reads: TIMESTAMP
   * columns are read as the shards hold them, so that a row an UPDATE moves to another shard,
   * or that {@code INSERT ... SELECT} copies, keeps its microseconds.
   */
  EnumerableShardScan forWrite() {
    return exactTimestamps ? this
        : new EnumerableShardScan(getCluster(), getTraitSet(), spec, bind, true);
  }

  /** The column a bind join filters, or null. */
  @Nullable BindColumn bind() {
    return bind;
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).itemIf("bindKeys",
        bind == null ? "" : getRowType().getFieldNames().get(bind.column()), bind != null);
  }

  /** The query code generation stashes: everything the scan's executions need, and no
   * planner object. */
  public ShardQuery query() {
    return ShardQueryFactory.create(spec, exactTimestamps);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // The format Calcite's operators above assume for this row type: arrays, except a bare
    // value for one column and an empty list for none; the runtime shapes rows to match.
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY);
    final Expression query = implementor.stash(query(), ShardQuery.class);
    final Expression openScans = implementor.stash(spec.table().openScans(),
        OpenScans.class);
    final Expression sessions = implementor.stash(spec.table().sessions(), Sessions.class);
    return implementor.result(physType,
        Blocks.toBlock(bind == null
            ? Expressions.call(ShardEnumerables.EXECUTE, implementor.getRootExpression(),
                query, openScans, sessions)
            : Expressions.call(ShardEnumerables.EXECUTE_BOUND,
                implementor.getRootExpression(), query, openScans, sessions,
                implementor.stash(bind, BindColumn.class))));
  }
}
