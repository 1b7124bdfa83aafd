package io.shardset.reshard;

import io.shardset.model.ShardSetModel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resharding a table family of 100,000 rows while it is queried: a fifth shard joins four, or
 * one of five leaves. Checked: the share of rows moved, that no row staying on its shard is
 * touched (a trigger on every shard table records each insert, update and delete), and that
 * every query gives the unsharded oracle's answer before, at the start and end of every step
 * of the move (run from the mover's own thread), all along from a concurrent reader (which
 * the mover waits for to read in each state of the rows), and after.
 */
class ReshardOnlineTest {
  /** The steps after which the concurrent reader must have read: each state of the rows. */
  private static final Set<Step> PHASES =
      Set.of(Step.ANNOUNCE, Step.DETACH, Step.COPY, Step.SWITCH, Step.MERGE);
  private static final String SCHEMA = FamilyData.SCHEMA;
  private static final int CUSTOMERS = 10_000;
  private static final int ORDERS = 90_000;

  @TempDir
  Path folder;

  private FamilyData family;

  @AfterEach void closeDatabases() {
    family.close();
  }

  @Test void aFifthShardTakesAFifthOnline() throws Exception {
    family = new FamilyData(folder, "online_add", false, CUSTOMERS, ORDERS);
    final Path model = family.writeModel(4);
    final Map<String, String> expected = family.load(model, 4);
    final Map<String, Map<Long, String>> before = family.placement(5);
    TouchedRows.clear();
    final ShardSetModel start = ModelFile.read(model).model(SCHEMA);
    final ReshardPlan plan = ReshardPlanner.plan(start, new Operation.AddShard("s4",
        Map.of("name", "s4", "jdbcUrl", family.url("s4")), null));

    moveWhileReading(model, plan, expected);

    final Map<String, Map<Long, String>> after = family.placement(5);
    final Map<String, Set<String>> moved = movedRows(before, after);
    final double fraction = moved.values().stream().mapToInt(Set::size).sum()
        / 2.0 / (CUSTOMERS + ORDERS);
    assertTrue(Math.abs(fraction - 0.2) < 0.02, "moved " + fraction + " of the rows");
    assertTrue(moved.keySet().stream().allMatch(pair -> pair.endsWith("->s4")),
        "rows moved only to s4: " + moved.keySet());
    assertOnlyMovedRowsTouched(moved);
    assertEquals(expected, FamilyData.answers(FamilyData.connect(model)), "after");
    assertTrue(ModelFile.read(model).model(SCHEMA).chunkMap().stream()
        .anyMatch(e -> e.shard().equals("s4")), "s4 holds hash ranges");
  }

  @Test void aShardLeavesOnline() throws Exception {
    family = new FamilyData(folder, "online_remove", false, CUSTOMERS, ORDERS);
    final Path model = family.writeModel(5);
    final Map<String, String> expected = family.load(model, 5);
    final Map<String, Map<Long, String>> before = family.placement(5);
    TouchedRows.clear();
    final ReshardPlan plan = ReshardPlanner.plan(ModelFile.read(model).model(SCHEMA),
        new Operation.RemoveShard("s2"));

    moveWhileReading(model, plan, expected);

    final Map<String, Map<Long, String>> after = family.placement(5);
    final Map<String, Set<String>> moved = movedRows(before, after);
    final long onS2 = before.values().stream()
        .mapToLong(rows -> rows.values().stream()
            .filter("s2"::equals).count()).sum();
    assertEquals(2 * onS2, moved.values().stream().mapToInt(Set::size).sum(),
        "exactly the rows of s2 moved");
    assertTrue(moved.keySet().stream().allMatch(pair -> pair.startsWith("s2->")),
        "rows moved only from s2: " + moved.keySet());
    final double fraction = onS2 / (double) (CUSTOMERS + ORDERS);
    assertTrue(Math.abs(fraction - 0.2) < 0.02, "moved " + fraction + " of the rows");
    assertOnlyMovedRowsTouched(moved);
    final ShardSetModel end = ModelFile.read(model).model(SCHEMA);
    assertTrue(end.shards().stream().noneMatch(s -> s.name().equals("s2")), "s2 left");
    assertEquals(expected, FamilyData.answers(FamilyData.connect(model)), "after");
  }

  /**
   * Runs the plan while a second thread queries without pause; at each step the mover's thread
   * waits until the reader has finished a whole round that began after the step, and checks
   * the answers itself too.
   */
  private void moveWhileReading(Path model, ReshardPlan plan, Map<String, String> expected)
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
      new Mover(model, SCHEMA, new Mover.Settings(Duration.ZERO, Duration.ofSeconds(60), 2_000),
          listener, TablePreparer::prepare).apply(plan);
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
   * Answers the queries through one connection, made again when ShardSet says that a shard
   * joined since it was made (the one error a reader may see, and only after the switch).
   */
  private final class Reader implements AutoCloseable {
    private final Path model;
    private Connection connection;
    private int reconnects;

    Reader(Path model) throws SQLException {
      this.model = model;
      this.connection = FamilyData.connect(model);
    }

    Map<String, String> answers() throws SQLException {
      try {
        return FamilyData.answers(connection);
      } catch (SQLException e) {
        if (!String.valueOf(e.getMessage()).contains("does not know; reconnect")
            || reconnects++ > 0) {
          throw e;
        }
        connection.close();
        connection = FamilyData.connect(model);
        return FamilyData.answers(connection);
      }
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

  /**
   * "source->target" to the rows that moved, each as "shard/table/key" on its source and on
   * its target.
   */
  private static Map<String, Set<String>> movedRows(Map<String, Map<Long, String>> before,
      Map<String, Map<Long, String>> after) {
    final Map<String, Set<String>> moved = new TreeMap<>();
    before.forEach((table, rows) -> rows.forEach((key, shard) -> {
      final String now = after.get(table).get(key);
      if (!now.equals(shard)) {
        final Set<String> pair = moved.computeIfAbsent(shard + "->" + now,
            k -> new HashSet<>());
        pair.add(shard + "/" + table + "/" + key);
        pair.add(now + "/" + table + "/" + key);
      }
    }));
    return moved;
  }

  /**
   * The trigger saw every moved row leave its source, and no other change than moved rows
   * arriving on their targets.
   */
  private static void assertOnlyMovedRowsTouched(Map<String, Set<String>> moved) {
    final Set<String> expected = new HashSet<>();
    moved.values().forEach(expected::addAll);
    final Set<String> leaving = new HashSet<>();
    moved.forEach((pair, rows) -> rows.stream()
        .filter(row -> row.startsWith(pair.substring(0, pair.indexOf('-')) + "/"))
        .forEach(leaving::add));
    final Set<String> touched = new HashSet<>(TouchedRows.touched());
    final Set<String> stayedButTouched = new HashSet<>(touched);
    stayedButTouched.removeAll(expected);
    assertEquals(Set.of(), stayedButTouched.size() > 20 ? Set.of(stayedButTouched.size()
        + " rows") : stayedButTouched, "rows that stayed but were touched");
    final Set<String> movedButNotSeen = new HashSet<>(leaving);
    movedButNotSeen.removeAll(touched);
    assertEquals(Set.of(), movedButNotSeen.size() > 20 ? Set.of(movedButNotSeen.size()
        + " rows") : movedButNotSeen, "moved rows the trigger did not see");
  }
}
