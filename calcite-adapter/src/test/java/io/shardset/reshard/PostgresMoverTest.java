package io.shardset.reshard;

import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Moves on PostgreSQL shards, whose tables and move tables have lower-case names and whose
 * driver streams only inside transactions.
 */
class PostgresMoverTest {
  @TempDir Path folder;

  @Test void addRemoveAndCrashOnPostgres() throws Exception {
    PostgresServer.require();
    List<String> databases = PostgresServer.createDatabases("reshard_mover", 5);
    try {
      MoveFixture fixture =
          new MoveFixture(FamilyShards.postgres(databases), folder, 200, 400);
      fixture.reset();
      MoverTest.mover(fixture, MoveListener.NONE, 100)
          .apply(MoverTest.plan(fixture, MoverTest.addFifth(fixture)));
      MoverTest.assertDone(fixture);
      MoverTest.mover(fixture, MoveListener.NONE, 100)
          .apply(MoverTest.plan(fixture, new Operation.RemoveShard("s0")));
      MoverTest.assertDone(fixture);
      assertEquals(List.of("s1", "s2", "s3", "s4"),
          fixture.model().shards().stream().map(s -> s.name()).toList());
      MoverTest.crashAtEvents(fixture, MoverTest::addFifth, 25);
    } finally {
      PostgresServer.drop(databases);
    }
  }
}
