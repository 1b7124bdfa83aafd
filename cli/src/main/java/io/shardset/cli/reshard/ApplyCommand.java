package io.shardset.cli.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.execution.ProgressMeters;
import io.shardset.model.ReshardSpec;
import io.shardset.reshard.ModelFile;
import io.shardset.reshard.MoveProgress;
import io.shardset.reshard.Mover;
import io.shardset.reshard.ReshardPlan;
import io.shardset.reshard.ReshardPlanner;
import io.shardset.reshard.RowCount;
import io.shardset.reshard.TablePreparer;

import org.checkerframework.checker.nullness.qual.Nullable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code shardset reshard apply}: moves the rows, online; resumes a move left unfinished. */
@Command(name = "apply", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Runs an operation: copies the moving ranges' rows to their new shards,"
            + " switches the chunk map in the model file, then deletes them from the old shards;"
            + " queries stay correct throughout.",
        "A move left unfinished (the model records it) is finished first; without an"
            + " operation, apply only does that."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:done",
        "1:the operation is impossible, or the move stopped (run apply again to resume it)",
        "2:wrong command line"})
public final class ApplyCommand implements Callable<Integer> {
  @Mixin
  private ModelOptions model;

  @Mixin
  private OperationArgs operation;

  @Option(names = "--grace", defaultValue = "10s", paramLabel = "DURATION",
      description = "After each change of the model file, how long to wait for other processes"
          + " to re-read it and finish queries started before (default: ${DEFAULT-VALUE});"
          + " e.g. 0s, 500ms, 2m. This process's own queries are waited for anyway. A model"
          + " kept in a catalog needs none: each step waits until every process that serves"
          + " the model has acknowledged it.")
  private String grace;

  @Option(names = "--batch-size", defaultValue = "1000", paramLabel = "N",
      description = "Keys per DELETE and rows per committed copy batch (default:"
          + " ${DEFAULT-VALUE}).")
  private int batchSize;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  /** The rows copied, as gauges (JMX, with -Dshardset.jmx=true), while the command runs. */
  private @Nullable ProgressMeters meters;

  @Override public Integer call() throws InterruptedException {
    try {
      return applyOrResume();
    } finally {
      if (meters != null) {
        meters.close();
        meters = null;
      }
    }
  }

  private int applyOrResume() throws InterruptedException {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final Mover.Settings settings = settings();
    try {
      ModelFile file = model.read();
      final String schema = model.schema(file);
      final ReshardSpec running = file.model(schema).reshard();
      if (running != null) {
        err.println("resuming " + running.operation() + " (phase " + running.phase().modelName()
            + ")");
        final MoveProgress progress = new MoveProgress(System::nanoTime);
        mover(file, schema, settings, new ProgressPrinter(err, progress, running.moves().size()))
            .resume();
        out.println("resumed and finished " + running.operation());
        if (running.phase() == ReshardSpec.Phase.COPY) {
          out.print(progress.report());
        }
        file = model.read();
      }
      if (!operation.present()) {
        if (running == null) {
          mover(file, schema, settings, new ProgressPrinter(err,
              new MoveProgress(System::nanoTime), 0)).resume();
          out.println("no move in progress");
        }
        out.flush();
        return 0;
      }
      final ReshardPlan plan =
          ReshardPlanner.plan(file.model(schema), operation.operation(spec.commandLine()));
      final PlanCount counted = PlanCount.of(file, plan);
      counted.lines().forEach(out::println);
      out.flush();
      final MoveProgress progress = new MoveProgress(System::nanoTime);
      final RowCount count = counted.count();
      if (count != null) {
        progress.allRows(count.totalRows());
      }
      mover(file, schema, settings, new ProgressPrinter(err, progress, plan.moves().size()))
          .apply(plan);
      out.println("done: " + plan.operation());
      out.print(progress.report());
      out.flush();
      return 0;
    } catch (CommandLine.ParameterException e) {
      throw e;
    } catch (RuntimeException | SQLException | java.io.IOException e) {
      err.println("apply failed: " + operation.secrets(model).redact(e.getMessage()));
      if (moveRecorded()) {
        err.println("the model file records how far the move got; run apply again to resume"
            + " it");
      }
      err.flush();
      return 1;
    }
  }

  /** Whether the model file records a move in progress now. */
  private boolean moveRecorded() {
    try {
      final ModelFile file = model.read();
      return file.model(model.schema(file)).reshard() != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private Mover mover(ModelFile file, String schema, Mover.Settings settings,
      ProgressPrinter printer) {
    if (meters == null) {
      meters = ProgressMeters.of(ShardSetRuntime.get().execution().scanServices().metrics(),
          "reshard", schema);
    }
    return new Mover(file.path(), schema, settings, printer.metered(meters),
        TablePreparer::prepare, ShardSetRuntime.get().topology());
  }

  private Mover.Settings settings() {
    if (batchSize < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--batch-size must be positive");
    }
    return new Mover.Settings(duration(grace), Mover.Settings.DEFAULT.drainTimeout(),
        batchSize);
  }

  private Duration duration(String text) {
    final String t = text.trim().toLowerCase(java.util.Locale.ROOT);
    try {
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      } else if (t.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
      } else if (t.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new CommandLine.ParameterException(spec.commandLine(),
        "--grace: '" + text + "' is not a duration such as 0s, 500ms, 10s or 2m");
  }
}
