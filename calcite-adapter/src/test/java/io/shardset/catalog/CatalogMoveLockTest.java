package io.shardset.catalog;

import io.shardset.model.CatalogSpec;
import io.shardset.testing.PostgresServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** One mover at a time per schema of a catalog, whichever machine it runs on. */
class CatalogMoveLockTest {
  @TempDir Path folder;

  @Test void aSecondMoverOfTheSameSchemaIsRefusedOnH2() throws Exception {
    oneAtATime(new CatalogSpec("jdbc:h2:" + folder.resolve("catalog"), "sa", ""));
  }

  @Test void aSecondMoverOfTheSameSchemaIsRefusedOnPostgres() throws Exception {
    PostgresServer.require();
    oneAtATime(new CatalogSpec(PostgresServer.url(
        PostgresServer.createDatabases("movelock", 1).get(0)), PostgresServer.USER, ""));
  }

  private static void oneAtATime(CatalogSpec spec) throws Exception {
    final CatalogDatabase database = CatalogDatabase.of(spec);
    try (CatalogMoveLock first = CatalogMoveLock.acquire(database, "S")) {
      final IllegalStateException refused = assertThrows(IllegalStateException.class,
          () -> CatalogMoveLock.acquire(database, "S"));
      assertEquals("another reshard apply is running on schema 'S' of the " + spec
          + " (it holds the schema's row of SHARDSET_MOVE_LOCKS); wait for it to end",
          refused.getMessage());
      // Another schema of the catalog moves on its own.
      CatalogMoveLock.acquire(database, "T").close();
    }
    // Let go, the lock is free again.
    CatalogMoveLock.acquire(database, "S").close();
  }
}
