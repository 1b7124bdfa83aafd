package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.model.ShardSetModel;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Runs an add-shard move (or resumes the one the model records) in its own process and kills
 * that process at one event of the move, the way a crash or {@code kill -9} would: no cleanup,
 * no rollback but the databases' own.
 *
 * <p>Arguments: the model file, the step, the event detail ({@code start} or {@code done}) at
 * which to die, and the new shard's JDBC URL.
 */
public final class KilledMove {
  /** The exit status of a process killed at its event. */
  static final int KILLED = 137;

  private KilledMove() {
  }

  public static void main(String[] args) throws Exception {
    run(Path.of(args[0]), Step.valueOf(args[1]), args[2], args[3]);
    System.exit(0);
  }

  /** Applies or resumes the move, halting the process at the event given. */
  static void run(Path model, Step killStep, String killDetail, String newShardUrl)
      throws Exception {
    final MoveListener listener = new MoveListener() {
      @Override public void step(Step step, String detail) {
        if (step == killStep && detail.equals(killDetail)) {
          Runtime.getRuntime().halt(KILLED);
        }
      }

      @Override public void rows(long copied, long total) {
      }
    };
    final Mover mover = new Mover(model, FamilyShards.SCHEMA,
        new Mover.Settings(Duration.ZERO, Duration.ofSeconds(30), 200), listener,
        TablePreparer::prepare, ShardSetRuntime.get().topology());
    final ShardSetModel current = ModelFile.read(model).model(FamilyShards.SCHEMA);
    if (current.reshard() != null) {
      mover.resume();
    } else {
      mover.apply(ReshardPlanner.plan(current,
          new Operation.AddShard("s4", Map.of("name", "s4", "jdbcUrl", newShardUrl), null)));
    }
  }
}
