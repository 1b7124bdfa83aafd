package io.shardset.topology;

import io.shardset.model.TestOperands;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A schema's model that follows its model file. */
class LiveModelTest {
  /** The live models of one test, as one process's runtime holds them. */
  private final LiveModels models = new LiveModels();

  @TempDir Path folder;

  /** A model file of schema S whose chunk map puts [0, split) on s0 and the rest on s1. */
  private static String model(long split) {
    return String.format(Locale.ROOT, """
        {"version": "1.0", "defaultSchema": "S",
         // comments are allowed, as Calcite allows them
         "schemas": [{"name": "S", "type": "custom",
           "factory": "io.shardset.calcite.ShardSchemaFactory",
           "operand": {
             "shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                        {"name": "s1", "jdbcUrl": "jdbc:h2:mem:s1"}],
             "chunkMap": [{"from": 0, "to": %d, "shard": "s0"},
                          {"from": %d, "to": 4294967296, "shard": "s1"}],
             "tables": [{"name": "T", "method": "consistent-hash", "shardKey": ["K"]}]}}]}
        """, split, split);
  }

  /** Writes the file and opens its live model as a connection would. */
  private LiveModel open(Path file, String json) throws IOException {
    return ModelFiles.open(models, file, json);
  }

  private static long split(LiveModel.Snapshot snapshot) {
    return snapshot.model().chunkMap().get(0).to();
  }

  @Test void inlineModelIsNotLive() {
    assertNull(models.of("S", Map.of("modelUri", "inline:{}"), TestOperands.parse(
        TestOperands.twoShards(""))));
    assertNull(models.of("S", Map.of(), TestOperands.parse(TestOperands.twoShards(""))));
  }

  @Test void publishAndDrainReadsTheChangedFile() throws Exception {
    Path file = folder.resolve("model.json");
    LiveModel live = open(file, model(1000));
    assertEquals(1, live.current().version());
    assertSame(live, open(file, model(1000)));
    Files.writeString(file, model(2000));
    models.publishAndDrain(file, Duration.ofSeconds(10));
    assertEquals(2, live.current().version());
    assertEquals(2000, split(live.current()));
    // Re-reading an unchanged model keeps its version.
    models.publishAndDrain(file, Duration.ofSeconds(10));
    assertEquals(2, live.current().version());
  }

  @Test void invalidFileKeepsTheSnapshot() throws Exception {
    Path file = folder.resolve("model.json");
    LiveModel live = open(file, model(1000));
    Files.writeString(file, model(1000).replace("\"shardKey\"", "\"shardKy\""));
    models.publishAndDrain(file, Duration.ofSeconds(10));
    assertEquals(1, live.current().version());
    Files.writeString(file, "{ not json");
    models.publishAndDrain(file, Duration.ofSeconds(10));
    assertEquals(1, live.current().version());
    assertEquals(1000, split(live.current()));
    Files.writeString(file, model(3000));
    models.publishAndDrain(file, Duration.ofSeconds(10));
    assertEquals(3000, split(live.current()));
  }

  @Test void drainWaitsForAnOpenExecution() throws Exception {
    Path file = folder.resolve("model.json");
    LiveModel live = open(file, model(1000));
    LiveModel.Ticket ticket = live.enter();
    Files.writeString(file, model(2000));
    CountDownLatch started = new CountDownLatch(1);
    Thread[] drainer = new Thread[1];
    CompletableFuture<Void> drained = CompletableFuture.runAsync(() -> {
      drainer[0] = Thread.currentThread();
      started.countDown();
      try {
        models.publishAndDrain(file, Duration.ofSeconds(10));
      } catch (TimeoutException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    started.await();
    while (drainer[0].getState() != Thread.State.TIMED_WAITING && !drained.isDone()) {
      Thread.onSpinWait(); // until the drain waits for the open execution
    }
    assertFalse(drained.isDone());
    assertEquals(2000, split(live.current()));
    try (LiveModel.Ticket later = live.enter()) {
      assertEquals(2, later.snapshot().version()); // a newer execution does not hold it up
    }
    assertFalse(drained.isDone());
    assertEquals(1, ticket.snapshot().version());
    ticket.close();
    ticket.close();
    drained.get(10, TimeUnit.SECONDS);
  }

  @Test void drainTimesOutNamingTheRunningExecutions() throws Exception {
    Path file = folder.resolve("model.json");
    LiveModel live = open(file, model(1000));
    try (LiveModel.Ticket first = live.enter(); LiveModel.Ticket second = live.enter()) {
      Files.writeString(file, model(2000));
      TimeoutException e = assertThrows(TimeoutException.class,
          () -> models.publishAndDrain(file, Duration.ZERO));
      assertEquals("2 executions of schema 'S' under an older version of model file "
          + file.toAbsolutePath().normalize() + " still run", e.getMessage());
    }
    models.publishAndDrain(file, Duration.ZERO);
  }
}
