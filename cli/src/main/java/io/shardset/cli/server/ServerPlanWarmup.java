package io.shardset.cli.server;

import io.shardset.calcite.prepare.PlanCache;
import io.shardset.calcite.prepare.PlanWarmup;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

/**
 * A server's plan warm-up ({@code --plan-warmup FILE}): when the server starts, a background
 * thread plans the statements of the file on a connection with the sessions' settings, which
 * puts their plans in the process's plan cache before clients ask; when the server stops, the
 * statements of the plans it holds replace the file's.
 */
final class ServerPlanWarmup implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerPlanWarmup.class);

  private final @Nullable Path file;
  private final PlanCache cache;
  private final Connection model;
  private final CompletableFuture<PlanWarmup.Outcome> done;

  private ServerPlanWarmup(@Nullable Path file, PlanCache cache, Connection model,
      CompletableFuture<PlanWarmup.Outcome> done) {
    this.file = file;
    this.cache = cache;
    this.model = model;
    this.done = done;
  }

  /**
   * Starts planning the statements of {@code file}, if it is given and exists, on a
   * connection of {@code url} with {@code info}.
   *
   * @param model the server's own connection on its model, open until this closes: the plans
   *     kept at the end are those made on its tables
   */
  static ServerPlanWarmup start(@Nullable Path file, PlanCache cache, Connection model,
      String url, Properties info) {
    final CompletableFuture<PlanWarmup.Outcome> done = new CompletableFuture<>();
    if (file == null || !Files.exists(file)) {
      done.complete(new PlanWarmup.Outcome(0, 0));
      return new ServerPlanWarmup(file, cache, model, done);
    }
    final Thread thread = new Thread(() -> {
      try {
        final List<PlanWarmup.Statement> statements = PlanWarmup.read(file);
        try (Connection connection = DriverManager.getConnection(url, info)) {
          final PlanWarmup.Outcome outcome = PlanWarmup.replan(connection, statements);
          LOG.info("planned {} statements of {} ({} no longer prepare)", outcome.planned(),
              file, outcome.failed());
          done.complete(outcome);
        }
      } catch (IOException | SQLException | RuntimeException e) {
        LOG.warn("cannot plan the statements of {}: {}", file, e.getMessage());
        done.completeExceptionally(e);
      }
    }, "shardset-plan-warmup");
    thread.setDaemon(true);
    thread.start();
    return new ServerPlanWarmup(file, cache, model, done);
  }

  /** What planning the file's statements did, once it is done. */
  CompletableFuture<PlanWarmup.Outcome> done() {
    return done;
  }

  /** Writes the statements of the plans the process holds on the model's tables to the
   * file. */
  @Override public void close() {
    if (file == null) {
      return;
    }
    try {
      final List<PlanWarmup.Statement> statements =
          cache.statements(model, PlanCache.DEFAULT_MAXIMUM_SIZE);
      PlanWarmup.write(file, statements);
      LOG.info("kept {} statements in {} for the next start", statements.size(), file);
    } catch (IOException | SQLException e) {
      LOG.warn("cannot keep the statements of the plan cache in {}: {}", file, e.getMessage());
    }
  }
}
