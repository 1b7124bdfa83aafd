package io.shardset.reshard;

import io.shardset.model.ShardSetModel;
import io.shardset.testing.LongTest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
@LongTest
class ReshardOnlineTest {
  private static final String SCHEMA = FamilyShards.SCHEMA;
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
        family.shard("s4"), null));

    MoveWhileReading.apply(model, plan, expected);

    final Map<String, Map<Long, String>> after = family.placement(5);
    final Map<String, Set<String>> moved = movedRows(before, after);
    final double fraction = moved.values().stream().mapToInt(Set::size).sum()
        / 2.0 / (CUSTOMERS + ORDERS);
    assertTrue(Math.abs(fraction - 0.2) < 0.02, "moved " + fraction + " of the rows");
    assertTrue(moved.keySet().stream().allMatch(pair -> pair.endsWith("->s4")),
        "rows moved only to s4: " + moved.keySet());
    assertOnlyMovedRowsTouched(moved);
    try (Connection c = FamilyData.connect(model)) {
      family.assertAnswersUnsharded(c);
    }
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

    MoveWhileReading.apply(model, plan, expected);

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
    try (Connection c = FamilyData.connect(model)) {
      family.assertAnswersUnsharded(c);
    }
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
