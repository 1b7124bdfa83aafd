package io.shardset.calcite.plan;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Marks the shard scans of a plan that reads several to start when the statement starts.
 *
 * <p>Calcite's operators above the shards open their inputs one after another: a hash join
 * reads its build side whole before it opens the other side, a union its inputs in turn. So a
 * statement with several scans (TPC-H's joins of tables sharded on other keys) waited for each
 * scan's first rows in turn. Started at once, their shard statements run while the first
 * scan is read, and their rows wait in their buffers. A scan filtered by a bind join's keys
 * cannot start before its keys are read; a scan starts early only where every shard's pool
 * has room for it, and never in a transaction (see {@code EarlyStarts}), so a lone scan (a
 * point query) keeps reading its one shard on the caller's thread.
 */
final class EarlyScans {
  private EarlyScans() {
  }

  /** The plan with its scans marked, when it has at least two. */
  static RelNode mark(RelNode plan) {
    if (count(plan) < 2) {
      return plan;
    }
    return plan.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        final RelNode visited = super.visit(other);
        return visited instanceof EnumerableShardScan scan && scan.bind() == null
            ? scan.withEarlyStart() : visited;
      }
    });
  }

  private static int count(RelNode plan) {
    final int[] scans = {0};
    new RelVisitor() {
      @Override public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        if (node instanceof EnumerableShardScan) {
          scans[0]++;
        }
        super.visit(node, ordinal, parent);
      }
    }.go(plan);
    return scans[0];
  }
}
