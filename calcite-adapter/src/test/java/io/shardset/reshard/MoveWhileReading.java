package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs a move of a {@link FamilyData} family while its queries are checked against the
 * oracle's answers: from a concurrent reader all along and from the mover's own thread at the
 * start and end of every step.
 */
final class MoveWhileReading {
  /** The steps after which the concurrent reader must have read: each state of the rows. */
  private static final Set<Step> PHASES =
      Set.of(Step.ANNOUNCE, Step.DETACH, Step.COPY, Step.SWITCH, Step.MERGE);

  private MoveWhileReading() {
  }

  /**
   * Runs the plan while a second thread queries without pause; at each step the mover's thread
   * waits until the reader has finished a whole round that began after the step, and checks
   * the answers itself too.
   */
  static void apply(Path model, ReshardPlan plan, Map<String, String> expected)
      throws Exception {
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    final AtomicBoolean done = new AtomicBoolean();
    final AtomicInteger rounds = new AtomicInteger();
    final Thread reader = new Thread(() -> {
      try (Reader r = new Reader(model)) {
        while (!done.get()) {
          final Map<String, String> got = r.answers();
          if (!got.equals(expected)) {
            failures.add("concurrent reader: " + difference(expected, got));
          }
          synchronized (rounds) {
            rounds.incrementAndGet();
            rounds.notifyAll();
          }
        }
      } catch (Throwable e) {
        failures.add("concurrent reader failed: " + e);
        synchronized (rounds) {
          rounds.notifyAll();
        }
      }
    }, "concurrent-reader");
    reader.start();
    final List<String> steps = new ArrayList<>();
    final Reader stepReader = new Reader(model);
    final MoveListener listener = new MoveListener() {
      @Override public void step(Step step, String detail) {
        if (!detail.equals("start") && !detail.equals("done")) {
          return;
        }
        steps.add(step + " " + detail);
        try {
          final Map<String, String> got = stepReader.answers();
          if (!got.equals(expected)) {
            failures.add(step + " " + detail + ": " + difference(expected, got));
          }
        } catch (SQLException e) {
          failures.add(step + " " + detail + ": " + e);
        }
        if (detail.equals("done") && PHASES.contains(step)) {
          awaitRound(rounds, failures);
        }
      }

      @Override public void rows(long copied, long total) {
      }
    };
    try {
      new Mover(model, FamilyShards.SCHEMA,
          new Mover.Settings(Duration.ZERO, Duration.ofSeconds(60), 2_000), listener,
          TablePreparer::prepare, ShardSetRuntime.get().topology()).apply(plan);
    } finally {
      done.set(true);
      reader.join(TimeUnit.SECONDS.toMillis(60));
      stepReader.close();
    }
    assertEquals(List.of(), List.copyOf(failures));
    assertTrue(steps.containsAll(List.of("DETACH done", "COPY done", "SWITCH done",
        "MERGE done")), "steps seen: " + steps);
    assertTrue(rounds.get() >= 2 * PHASES.size(), rounds + " reader rounds");
  }

  /**
   * Answers the queries through one connection, opened before the move: it follows the model
   * as shards join and leave, and never needs to be made again.
   */
  private static final class Reader implements AutoCloseable {
    private final Connection connection;

    Reader(Path model) throws SQLException {
      this.connection = FamilyData.connect(model);
    }

    Map<String, String> answers() throws SQLException {
      return FamilyData.answers(connection);
    }

    @Override public void close() throws SQLException {
      connection.close();
    }
  }

  /** Waits until the reader finishes a round that began after now. */
  private static void awaitRound(AtomicInteger rounds, ConcurrentLinkedQueue<String> failures) {
    synchronized (rounds) {
      final int target = rounds.get() + 2;
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (rounds.get() < target && failures.isEmpty()) {
        final long left = deadline - System.nanoTime();
        if (left <= 0) {
          failures.add("the reader did not finish a round within 60 s");
          return;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(rounds, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static String difference(Map<String, String> expected, Map<String, String> got) {
    for (Map.Entry<String, String> e : expected.entrySet()) {
      if (!e.getValue().equals(got.get(e.getKey()))) {
        return e.getKey() + "\n  expected " + e.getValue() + "\n  got      " + got.get(e.getKey());
      }
    }
    return "different queries: " + got.keySet();
  }
}
