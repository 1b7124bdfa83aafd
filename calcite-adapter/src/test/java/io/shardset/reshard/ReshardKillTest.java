package io.shardset.reshard;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.model.ShardSetModel;
import io.shardset.testing.LongTest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills the process that adds a fifth shard at each step of the move ({@code kill -9} style:
 * {@link Runtime#halt}), checks that queries through ShardSet still give the oracle's answers
 * in the state it left, then resumes the move in this process and checks the end state: the
 * same answers, every row once on the shard the final chunk map names, no move left.
 */
@LongTest
class ReshardKillTest {
  private static final int CUSTOMERS = 600;
  private static final int ORDERS = 2_400;

  @TempDir
  Path folder;

  private FamilyData family;

  @AfterEach void closeDatabases() {
    if (family != null) {
      family.close();
    }
  }

  /** Each step's start, and the end of the steps after which rows sit somewhere new. */
  static List<String> killPoints() {
    final List<String> points = new ArrayList<>();
    for (Step step : Step.values()) {
      points.add(step + " start");
    }
    for (Step step : List.of(Step.DETACH, Step.COPY, Step.SWITCH, Step.MERGE)) {
      points.add(step + " done");
    }
    return points;
  }

  @ParameterizedTest(name = "killed at {0}") @MethodSource("killPoints")
  void killedAtThenResumed(String point) throws Exception {
    final String[] at = point.split(" ");
    family = new FamilyData(folder, "kill", true, CUSTOMERS, ORDERS);
    final Path model = family.writeModel(4);
    family.load(model, 4);
    // This process opens the new shard's database first and so serves it to the child.
    family.open("s4");

    final Process child = new ProcessBuilder(
        ProcessHandle.current().info().command().orElse("java"), "-cp",
        System.getProperty("java.class.path"), KilledMove.class.getName(), model.toString(),
        at[0], at[1], family.url("s4"))
        .redirectErrorStream(true)
        .redirectOutput(folder.resolve("child.log").toFile())
        .start();
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child ends");
    assertEquals(KilledMove.KILLED, child.exitValue(),
        "killed at " + point + "; log: " + folder.resolve("child.log"));

    try (Connection c = FamilyData.connect(model)) {
      family.assertAnswersUnsharded(c);
    }

    new Mover(model, FamilyShards.SCHEMA,
        new Mover.Settings(Duration.ZERO, Duration.ofSeconds(30), 200), MoveListener.NONE,
        TablePreparer::prepare, ShardSetRuntime.get().topology()).resume();
    final ShardSetModel end = ModelFile.read(model).model(FamilyShards.SCHEMA);
    if (end.shards().stream().noneMatch(s -> s.name().equals("s4"))) {
      // Killed before the announcement: nothing had happened that the model shows; apply again.
      KilledMove.run(model, Step.DROP, "never", family.url("s4"));
    }
    assertFinished(model);
  }

  private void assertFinished(Path model) throws Exception {
    final ShardSetModel end = ModelFile.read(model).model(FamilyShards.SCHEMA);
    assertNull(end.reshard(), "no move in progress");
    assertTrue(end.chunkMap().stream().anyMatch(e -> e.shard().equals("s4")),
        "s4 holds hash ranges");
    try (Connection c = FamilyData.connect(model)) {
      family.assertAnswersUnsharded(c);
    }
    family.assertPlaced(end, 5);
    assertEquals(Map.of(), family.moveTables(5), "move tables left");
  }
}
