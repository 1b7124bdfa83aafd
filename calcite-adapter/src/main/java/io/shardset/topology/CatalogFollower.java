package io.shardset.topology;

import io.shardset.catalog.CatalogOperands;
import io.shardset.catalog.ModelCatalog;
import io.shardset.catalog.ProcessRegistry;
import io.shardset.model.CatalogSpec;
import io.shardset.model.ShardSetModel;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a process's {@link LiveModel} of a schema kept in a catalog up to date, and the
 * process's row in the catalog's {@link ProcessRegistry}: on a thread of its own, it looks for
 * a newer version every poll interval (at once when PostgreSQL notifies one), publishes it,
 * acknowledges the version once no execution under an older one runs, and renews the
 * process's lease.
 *
 * <p>The process registers before it reads the version it serves, so that a resharding step
 * published in between waits for it; and it renews its lease only on a row that was there
 * before it last read the newest version: a process that finds its row gone (a move excluded
 * it while it could not reach the catalog) registers again, reads the newest version again,
 * and serves only after that.
 */
final class CatalogFollower implements AutoCloseable {
  private static final Logger LOGGER = LoggerFactory.getLogger(CatalogFollower.class);

  private final LiveModel live;
  private final ModelCatalog catalog;
  private final ProcessRegistry registry;
  private final Map<String, ?> pointer;
  private final String processId;
  private final String description;
  private final CatalogSpec spec;
  private final String schema;
  private final long heartbeatNanos;
  private final Semaphore wake = new Semaphore(0);
  private final Thread thread;
  private final @Nullable Thread listener;
  private volatile boolean closed;
  /** The follower thread's connection to the catalog; null until needed again. */
  private @Nullable Connection connection;
  /** What the catalog last took from this process; written by the follower thread only. */
  private long sentRuns = -1;
  private long sentDrained = -1;
  private long sentAt;
  /** The last failure logged, so that a catalog that stays down is logged once. */
  private @Nullable String logged;

  private CatalogFollower(LiveModel live, ModelCatalog catalog, Map<String, ?> pointer,
      String processId, String description, long registeredAt) {
    this.live = live;
    // Looks and renewals give up well within the lease on a catalog the network lost.
    this.catalog = ModelCatalog.of(catalog.database().withNetworkTimeout(
        catalog.database().spec().leaseMillis() / 3));
    this.registry = ProcessRegistry.of(this.catalog.database());
    this.pointer = pointer;
    this.processId = processId;
    this.description = description;
    this.spec = catalog.database().spec();
    this.schema = live.schema();
    this.heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(spec.leaseMillis()) / 3;
    this.sentRuns = live.current().version();
    this.sentDrained = sentRuns;
    this.sentAt = registeredAt;
    this.thread = new Thread(this::run, "shardset-catalog-" + schema);
    this.thread.setDaemon(true);
    this.listener = spec.jdbcUrl().startsWith("jdbc:postgresql:")
        ? new Thread(this::listen, "shardset-catalog-listen-" + schema) : null;
    if (listener != null) {
      listener.setDaemon(true);
    }
  }

  /**
   * Registers the process for a schema of a catalog, reads the newest version, and follows
   * the catalog from then on.
   *
   * @param pointer the operand of the model file that points at the catalog
   * @throws IllegalArgumentException if the catalog cannot be read or holds no such schema;
   *     the message names the catalog without its password
   */
  static CatalogFollower start(LiveModel.Key key, CatalogSpec spec, Map<String, ?> pointer,
      String processId, String description) {
    final String schema = key.schema();
    final ModelCatalog catalog = ModelCatalog.of(spec);
    final ProcessRegistry registry = ProcessRegistry.of(catalog.database());
    final ModelCatalog.Version version;
    final long registeredAt;
    final ShardSetModel model;
    boolean registered = false;
    try {
      catalog.create();
      registry.heartbeat(processId, schema, description, 0, 0, spec.leaseMillis());
      registered = true;
      version = catalog.newest(schema);
      model = CatalogOperands.model(version, pointer, System::getenv);
      registeredAt = System.nanoTime();
      registry.heartbeat(processId, schema, description, version.number(), version.number(),
          spec.leaseMillis());
    } catch (SQLException | RuntimeException e) {
      if (registered) {
        try {
          registry.remove(processId, schema);
        } catch (SQLException leaving) {
          e.addSuppressed(leaving);
        }
      }
      if (e instanceof SQLException) {
        throw new IllegalArgumentException("cannot read the model of schema '" + schema
            + "' from the " + spec + ": " + e.getMessage(), e);
      }
      throw (RuntimeException) e;
    }
    final LiveModel live = new LiveModel(key, new LiveModel.Snapshot(version.number(), model),
        new ModelLease(Duration.ofMillis(spec.leaseMillis()), schema, spec.toString(),
            registeredAt), spec);
    final CatalogFollower follower = new CatalogFollower(live, catalog, pointer, processId,
        description, registeredAt);
    live.onDrained(follower::wake);
    follower.thread.start();
    if (follower.listener != null) {
      follower.listener.start();
    }
    return follower;
  }

  LiveModel live() {
    return live;
  }

  /** Looks at the catalog now rather than at the next poll. */
  void wake() {
    wake.release();
  }

  private void run() {
    while (!closed) {
      try {
        wake.tryAcquire(spec.pollMillis(), TimeUnit.MILLISECONDS);
        wake.drainPermits();
      } catch (InterruptedException e) {
        return;
      }
      if (!closed) {
        follow();
      }
    }
  }

  /** One look at the catalog: a newer version, the acknowledgement, the lease. */
  private void follow() {
    final long start = System.nanoTime();
    try {
      final Connection c = connection();
      final long newest = catalog.newestNumber(c, schema);
      if (newest > live.current().version()) {
        final ModelCatalog.Version version = catalog.version(c, schema, newest).orElseThrow(() ->
            new SQLException("version " + newest + " of schema '" + schema + "' vanished"));
        live.publish(newest, CatalogOperands.model(version, pointer, System::getenv));
      }
      final long runs = live.current().version();
      final long drained = live.drainedVersion();
      final ModelLease lease = Objects.requireNonNull(live.lease());
      if (runs != sentRuns || drained != sentDrained || start - sentAt >= heartbeatNanos
          || !lease.held()) {
        if (registry.heartbeat(c, processId, schema, description, runs, drained,
            spec.leaseMillis())) {
          lease.renew(start);
        } else {
          // A move excluded this process: registered again now, it reads the newest version
          // once more before it renews its lease (a step published in between waits for it).
          LOGGER.warn("Schema '{}': this process was excluded from the {} while it could not"
              + " reach it; registered again", schema, spec);
          wake();
        }
        sentRuns = runs;
        sentDrained = drained;
        sentAt = start;
      }
      if (logged != null) {
        LOGGER.info("Schema '{}': the {} answers again", schema, spec);
        logged = null;
      }
    } catch (SQLException | RuntimeException e) {
      closeConnection();
      final String message = String.valueOf(e.getMessage());
      if (!message.equals(logged)) {
        logged = message;
        LOGGER.warn("Schema '{}' keeps version {}: cannot follow the {}: {}", schema,
            live.current().version(), spec, message);
      }
    }
  }

  private Connection connection() throws SQLException {
    Connection c = connection;
    if (c == null || c.isClosed()) {
      c = catalog.database().connect();
      connection = c;
    }
    return c;
  }

  private void closeConnection() {
    final Connection c = connection;
    connection = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // Broken already.
      }
    }
  }

  /** Waits for PostgreSQL's notifications of new versions, waking the follower on each. */
  private void listen() {
    while (!closed) {
      try (Connection c = catalog.database().connect()) {
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + ModelCatalog.CHANNEL);
        }
        final PGConnection pg = c.unwrap(PGConnection.class);
        while (!closed) {
          final PGNotification[] notifications = pg.getNotifications(1000);
          if (notifications != null) {
            for (PGNotification notification : notifications) {
              if (schema.equals(notification.getParameter())) {
                wake();
              }
            }
          }
        }
      } catch (SQLException e) {
        // The follower's polls log the catalog's failures; try again a poll later.
        try {
          Thread.sleep(spec.pollMillis());
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  /** Stops following and removes the process's row: it no longer serves the schema. */
  @Override public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    wake();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
      if (listener != null) {
        listener.interrupt();
        listener.join(TimeUnit.SECONDS.toMillis(5));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeConnection();
    try {
      registry.remove(processId, schema);
    } catch (SQLException e) {
      // Its lease runs out, and the next move goes on without it.
      LOGGER.debug("Schema '{}': could not leave the {}: {}", schema, spec, e.getMessage());
    }
  }
}
