package io.shardset.calcite.runtime;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * An UPDATE or DELETE that each target shard runs itself, as planned: the table and
 * operation, how the target shards and subpartitions are found (the plan of a scan with the
 * statement's WHERE clause, so a write reaches exactly what that read would), and the
 * statement of each physical table. Immutable, without planner objects.
 *
 * @param target the table, its coordinator and the operation
 * @param reach the plan of the read with the same WHERE clause: its routing, subpartition
 *     choice and parameter binding (its SELECT texts are not used)
 * @param statements by shard, then by physical table on the shard: the UPDATE or DELETE text
 *     and the query parameter index of each of its {@code ?}
 * @param subpartitions the subpartitions the plan fixes (null: all, or chosen by parameters)
 */
public record PushedWrite(WriteTarget target, PlannedScan reach,
    List<List<SqlTemplate.Rendered>> statements, @Nullable BitSet subpartitions) {
  public PushedWrite {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(reach, "reach");
    statements = statements.stream().map(List::copyOf).toList();
    subpartitions = subpartitions == null ? null : (BitSet) subpartitions.clone();
  }

  @Override public @Nullable BitSet subpartitions() {
    return subpartitions == null ? null : (BitSet) subpartitions.clone();
  }
}
