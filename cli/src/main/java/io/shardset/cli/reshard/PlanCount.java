package io.shardset.cli.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.model.ShardSetModel;
import io.shardset.reshard.ModelFile;
import io.shardset.reshard.Mover;
import io.shardset.reshard.ReshardPlan;
import io.shardset.reshard.RowCount;
import io.shardset.reshard.RowCounter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;

/** A plan with the rows it moves, counted on the shards. */
record PlanCount(ReshardPlan plan, @Nullable RowCount count, boolean modulo) {
  /** Counts the rows a plan moves (nothing is counted when no range moves). */
  static PlanCount of(ModelFile file, ReshardPlan plan) {
    final ShardSetModel before = file.model(plan.schema());
    final int shards = before.shardspace(plan.shardspace()).size();
    final int shardsAfter = plan.addedShard() != null ? shards + 1
        : plan.leaving() != null ? shards - 1 : shards;
    if (plan.moves().isEmpty()) {
      return new PlanCount(plan, null, false);
    }
    final ShardSetModel after = Mover.modelAfter(file, plan).model(plan.schema());
    final RowCount count =
        new RowCounter(before, ShardSetRuntime.get().topology().tables(before), after)
            .count(plan.shardspace(), shards, shardsAfter);
    return new PlanCount(plan, count, shardsAfter != shards);
  }

  /** The lines {@code reshard plan} prints. */
  List<String> lines() {
    return PlanText.lines(plan, count, modulo);
  }
}
