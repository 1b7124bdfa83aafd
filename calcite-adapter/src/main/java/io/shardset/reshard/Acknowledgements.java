package io.shardset.reshard;

import io.shardset.catalog.CatalogDatabase;
import io.shardset.catalog.ProcessRegistry;
import io.shardset.model.CatalogSpec;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Waits until every process that serves a schema of a catalog has acknowledged a version of
 * its model: it runs that version or a newer one, and no execution under an older one still
 * runs. A process whose lease ran out is excluded (its row removed): it refuses statements
 * until it has read the newest version, so the move goes on without it.
 */
final class Acknowledgements {
  /** How often the registry is read while waiting. */
  private static final long POLL_MILLIS = 20;

  private final CatalogDatabase database;
  private final ProcessRegistry registry;
  private final CatalogSpec spec;
  private final String schema;

  Acknowledgements(CatalogSpec spec, String schema) {
    this.spec = spec;
    this.schema = schema;
    this.database = CatalogDatabase.of(spec);
    this.registry = ProcessRegistry.of(database);
  }

  /**
   * Waits for every live process to acknowledge {@code version}.
   *
   * @param events told of each process excluded, and of the acknowledgement
   * @throws IllegalStateException if some have not within {@code timeout}; names them
   */
  void await(long version, Duration timeout, Consumer<String> events)
      throws SQLException, InterruptedException {
    final long deadline = System.nanoTime() + timeout.toNanos();
    try (Connection c = database.connect()) {
      awaitOn(c, version, timeout, deadline, events);
    }
  }

  private void awaitOn(Connection c, long version, Duration timeout, long deadline,
      Consumer<String> events) throws SQLException, InterruptedException {
    while (true) {
      final List<ProcessRegistry.Process> processes = registry.processes(c, schema);
      final List<ProcessRegistry.Process> waiting = new ArrayList<>();
      int acknowledged = 0;
      for (ProcessRegistry.Process process : processes) {
        if (process.drainedVersion() >= version) {
          acknowledged++;
        } else if (!process.expired()) {
          waiting.add(process);
        } else if (registry.exclude(process)) {
          events.accept("process " + process.description() + " excluded: its lease ran out "
              + process.sinceHeartbeatMillis() + " ms ago (lease " + process.leaseMillis()
              + " ms)");
        } else {
          // It renewed its lease meanwhile: look again.
          waiting.add(process);
        }
      }
      if (waiting.isEmpty()) {
        events.accept("version " + version + " acknowledged by " + acknowledged + " process"
            + (acknowledged == 1 ? "" : "es"));
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new IllegalStateException("the " + spec + " records the step (version "
            + version + " of schema '" + schema + "'), but " + waiting.size() + " process"
            + (waiting.size() == 1 ? " has" : "es have") + " not acknowledged it within "
            + timeout.toSeconds() + " s: " + waiting + "; resume the move once they have"
            + " (or once their leases run out)");
      }
      TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
    }
  }
}
