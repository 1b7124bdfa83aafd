package io.shardset.cli.reshard;

import io.shardset.reshard.MoveListener;
import io.shardset.reshard.MoveProgress;
import io.shardset.reshard.Step;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;

/**
 * Prints a move's steps as they happen and, while rows are copied, a progress line at most
 * once a second (rows, ranges, rate, ETA).
 */
final class ProgressPrinter implements MoveListener {
  private final PrintWriter err;
  private final MoveProgress progress;
  private final int ranges;

  /**
   * A printer for a move of {@code ranges} hash ranges.
   *
   * @param err where the lines go (standard error, so that the report alone goes to standard
   *     output)
   */
  ProgressPrinter(PrintWriter err, MoveProgress progress, int ranges) {
    this.err = Objects.requireNonNull(err, "err");
    this.progress = Objects.requireNonNull(progress, "progress");
    this.ranges = ranges;
    progress.ranges(0, ranges);
  }

  @Override public void step(Step step, String detail) {
    final String name = step.name().toLowerCase(Locale.ROOT);
    progress.step(name);
    if (step == Step.SWITCH && detail.equals("done")) {
      // The chunk map switches every moving range at once.
      progress.ranges(ranges, ranges);
    }
    err.println(name + ": " + detail);
    if (step == Step.COPY && detail.equals("done")) {
      err.println(progress.line().render());
    }
    err.flush();
  }

  @Override public void moved(String source, String target, long rows) {
    progress.pairRows(source, target, rows);
  }

  @Override public void rows(long copied, long total) {
    progress.rows(copied, total);
    progress.lineIfDue().ifPresent(line -> {
      err.println(line.render());
      err.flush();
    });
  }
}
