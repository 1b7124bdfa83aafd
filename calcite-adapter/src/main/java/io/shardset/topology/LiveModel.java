package io.shardset.topology;

import io.shardset.model.CatalogSpec;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.transaction.CommitCheck;
import io.shardset.util.SuppressForbidden;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A schema's model as its model file, or its catalog, says now, for the parts that may change
 * while the process runs (the chunk map, the shards, a resharding in progress); shared by
 * every connection of a {@link LiveModels} registry that reads that file or catalog. A model
 * file is looked at by the executions themselves (at most every 200 ms); a catalog's versions
 * are published by its {@link CatalogFollower}, and executions run only while the process
 * holds its lease on the catalog.
 *
 * <p>Executions {@linkplain #enter() enter} under the current snapshot and leave when they
 * close, so that the resharding tool can wait until no execution that started under an older
 * snapshot still runs before it takes a step those executions would not expect.
 */
public final class LiveModel {
  private static final Logger LOGGER = LoggerFactory.getLogger(LiveModel.class);
  /** How often, at most, executions look at the model file. */
  private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
  /** Reads what Calcite's model handler reads. */
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(JsonParser.Feature.ALLOW_COMMENTS, true)
      .configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true)
      .configure(JsonParser.Feature.ALLOW_UNQUOTED_FIELD_NAMES, true);

  /** The model at one moment. */
  public record Snapshot(long version, ShardSetModel model) {
  }

  /**
   * One execution running under a snapshot; closing it (more than once is fine) ends it. As a
   * transaction's attachment, it lets the transaction commit only while {@link #confirm()}
   * holds.
   */
  public interface Ticket extends AutoCloseable, CommitCheck {
    /** The snapshot the execution runs under. */
    Snapshot snapshot();

    /**
     * Throws {@link LeaseLostException} if the process lost its lease on the model's catalog
     * since the execution entered: it may have missed a newer version, and must not write or
     * give a result under this one. Nothing for a model file.
     */
    void confirm();

    @Override void close();

    /** {@link #confirm()}, as the transaction's commit asks. */
    @Override default void check() throws SQLException {
      try {
        confirm();
      } catch (LeaseLostException e) {
        throw new SQLException(e.getMessage(), e.sqlState(), e);
      }
    }
  }

  /** What a registry knows a live model by: its model file (a {@link Path}) or its catalog's
   * identity, and its schema. */
  record Key(Object source, String schema) {
  }

  /** A snapshot and the executions running under it. */
  private static final class State {
    final Snapshot snapshot;
    final AtomicInteger open = new AtomicInteger();

    State(Snapshot snapshot) {
      this.snapshot = snapshot;
    }
  }

  /** What tells that a file changed: its size, modification time and identity. */
  private record FileStamp(long size, long modified, Object fileKey) {
    static final FileStamp UNKNOWN = new FileStamp(-1, -1, null);

    static FileStamp of(Path file) {
      try {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        return new FileStamp(a.size(), a.lastModifiedTime().toMillis(), a.fileKey());
      } catch (IOException e) {
        return new FileStamp(-2, -2, e.getMessage());
      }
    }
  }

  private final Key key;
  private final String modelUri;
  private final AtomicLong nextCheck = new AtomicLong(System.nanoTime());
  /** Guards reading the file and replacing the state; drains wait on it. */
  private final Object lock = new Object();
  private volatile State state;
  /** The file state the current snapshot was read from; guarded by {@link #lock}. */
  private FileStamp stamp = FileStamp.UNKNOWN;
  /** Superseded states with executions still open; guarded by {@link #lock}. */
  private final List<State> draining = new ArrayList<>();
  /** The file state whose error was logged, so that it is logged once; guarded by lock. */
  private FileStamp failedStamp;
  /** The lease on the catalog the model is kept in; null for a model file. */
  private final @Nullable ModelLease lease;
  /** The catalog the model is kept in; null for a model file. */
  private final @Nullable CatalogSpec catalog;
  /** Told when the last execution under a superseded snapshot ends. */
  private volatile Runnable drainedListener = () -> { };
  /** The tickets each thread entered and has not closed yet, so that a writer can tell
   * whether waiting for a newer snapshot would hold back the very drain it waits for. */
  private final ThreadLocal<AtomicInteger> heldTickets =
      ThreadLocal.withInitial(AtomicInteger::new);

  LiveModel(Key key, String modelUri, ShardSetModel initial) {
    this.key = key;
    this.modelUri = modelUri;
    // The stamp is unknown: the file may have changed since Calcite read the operand, so the
    // first look at the file reads it (and keeps version 1 if the model is the same).
    this.state = new State(new Snapshot(1, initial));
    this.lease = null;
    this.catalog = null;
  }

  /** A model kept in a catalog, at one of its versions, under a lease its follower renews. */
  LiveModel(Key key, Snapshot initial, ModelLease lease, CatalogSpec catalog) {
    this.key = key;
    this.modelUri = "";
    this.state = new State(initial);
    this.lease = lease;
    this.catalog = catalog;
  }

  /** The catalog the model is kept in; null for a model file. */
  public @Nullable CatalogSpec catalog() {
    return catalog;
  }

  /** The model file this live model reads; null for a model kept in a catalog. */
  public @Nullable Path file() {
    return key.source() instanceof Path path ? path : null;
  }

  /** What the model is read from: its model file, or its catalog's identity. */
  public Object source() {
    return key.source();
  }

  /** The schema. */
  public String schema() {
    return key.schema();
  }

  /** Whether this model was read as {@code initial} says, at the last look at its file. */
  boolean holds(ShardSetModel initial) {
    return initial.equals(state.snapshot.model());
  }

  /** The current snapshot; re-reads the file when it changed (checked at most every 200 ms). */
  public Snapshot current() {
    if (lease != null) {
      return state.snapshot;
    }
    long now = System.nanoTime();
    long due = nextCheck.get();
    if (now - due >= 0 && nextCheck.compareAndSet(due, now + CHECK_NANOS)) {
      refresh(false);
    }
    return state.snapshot;
  }

  /**
   * Starts an execution under the current snapshot.
   *
   * @throws LeaseLostException if the model is kept in a catalog and the process lost its
   *     lease on it
   */
  public Ticket enter() {
    current();
    if (lease != null) {
      lease.check();
    }
    while (true) {
      State entered = state;
      long lapses = lease == null ? 0 : lease.lapses();
      entered.open.incrementAndGet();
      if (entered == state) {
        return new OpenTicket(entered, heldTickets.get(), lapses);
      }
      // A newer snapshot was published meanwhile; a drain may have seen no execution open
      // under this one, so run under the newer one instead.
      leave(entered);
    }
  }

  @SuppressForbidden(reason = "wakes the drains that wait on the lock for open executions to end")
  private void leave(State left) {
    if (left.open.decrementAndGet() == 0 && left != state) {
      synchronized (lock) {
        lock.notifyAll();
      }
      drainedListener.run();
    }
  }

  /** An open execution. */
  private final class OpenTicket implements Ticket {
    private final State entered;
    /** The entering thread's count of open tickets; closing may happen on another thread. */
    private final AtomicInteger held;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The lease's lapses when the execution entered. */
    private final long lapses;

    OpenTicket(State entered, AtomicInteger held, long lapses) {
      this.entered = entered;
      this.held = held;
      this.lapses = lapses;
      held.incrementAndGet();
    }

    @Override public Snapshot snapshot() {
      return entered.snapshot;
    }

    @Override public void confirm() {
      if (lease != null) {
        lease.check(lapses);
      }
    }

    @Override public void close() {
      if (closed.compareAndSet(false, true)) {
        held.decrementAndGet();
        leave(entered);
      }
    }
  }

  /** How many tickets the calling thread entered and has not closed (its open queries). */
  public int heldByCurrentThread() {
    return heldTickets.get().get();
  }

  /**
   * Waits until a snapshot newer than {@code version} is current, or until {@code deadline}
   * (by {@link System#nanoTime()}); returns the current snapshot either way. A resharding
   * tool of this process wakes the wait as soon as it publishes a step; one of another
   * process is seen by looking at the file every 200 ms.
   */
  @SuppressForbidden(reason = "waits on the lock that refresh notifies on a new snapshot")
  public Snapshot awaitNewer(long version, long deadline) throws InterruptedException {
    synchronized (lock) {
      while (true) {
        refresh(false);
        if (state.snapshot.version() > version) {
          return state.snapshot;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return state.snapshot;
        }
        TimeUnit.NANOSECONDS.timedWait(lock, Math.min(left, CHECK_NANOS));
      }
    }
  }

  /**
   * Publishes a version of a model kept in a catalog, if it is newer than the current one
   * (its follower calls this).
   */
  @SuppressForbidden(reason = "wakes the writers that wait on the lock for a new snapshot")
  void publish(long version, ShardSetModel model) {
    synchronized (lock) {
      State old = state;
      if (version <= old.snapshot.version()) {
        return;
      }
      draining.removeIf(s -> s.open.get() == 0);
      draining.add(old);
      state = new State(new Snapshot(version, model));
      lock.notifyAll();
      LOGGER.info("Schema '{}' now runs version {} of its catalog", key.schema(), version);
    }
  }

  /**
   * The newest version under which no execution of an older version still runs: the version
   * this process acknowledges to a resharding that waits for it.
   */
  long drainedVersion() {
    synchronized (lock) {
      draining.removeIf(s -> s.open.get() == 0);
      long drained = state.snapshot.version();
      for (State s : draining) {
        drained = Math.min(drained, s.snapshot.version());
      }
      return drained;
    }
  }

  /** Tells {@code listener} each time the last execution under a superseded snapshot ends. */
  void onDrained(Runnable listener) {
    this.drainedListener = listener;
  }

  /** The lease on the catalog; null for a model file. */
  @Nullable ModelLease lease() {
    return lease;
  }

  /** Reads the file if it changed (always when {@code force}) and publishes what it says. */
  @SuppressForbidden(reason = "wakes the writers that wait on the lock for a new snapshot")
  void refresh(boolean force) {
    if (lease != null) {
      return;
    }
    synchronized (lock) {
      FileStamp now = FileStamp.of((Path) key.source());
      if (!force && (now.equals(stamp) || now.equals(failedStamp))) {
        return;
      }
      ShardSetModel model;
      try {
        model = read();
      } catch (IOException | RuntimeException e) {
        if (!now.equals(failedStamp)) {
          failedStamp = now;
          LOGGER.error("Keeping the model of schema '{}' read before: cannot use model file {}:"
              + " {}", key.schema(), key.source(), e.getMessage());
        }
        return;
      }
      failedStamp = null;
      stamp = now;
      State old = state;
      if (model.equals(old.snapshot.model())) {
        return;
      }
      State next = new State(new Snapshot(old.snapshot.version() + 1, model));
      draining.removeIf(s -> s.open.get() == 0);
      draining.add(old);
      state = next;
      lock.notifyAll();
      LOGGER.info("Schema '{}' now follows model file {} as changed (version {})",
          key.schema(), key.source(), next.snapshot.version());
    }
  }

  /** The schema's operand as the file says it, completed as Calcite's model handler does. */
  private ShardSetModel read() throws IOException {
    Map<?, ?> root = JSON.readValue(((Path) key.source()).toFile(), Map.class);
    Map<String, Object> operand = null;
    if (root.get("schemas") instanceof List<?> schemas) {
      for (Object schema : schemas) {
        if (schema instanceof Map<?, ?> map && key.schema().equals(map.get("name"))) {
          if (!(map.get("operand") instanceof Map<?, ?> found)) {
            throw new IllegalArgumentException("schema '" + key.schema() + "' has no operand");
          }
          operand = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : found.entrySet()) {
            operand.put(String.valueOf(e.getKey()), e.getValue());
          }
        }
      }
    }
    if (operand == null) {
      throw new IllegalArgumentException("the file has no schema '" + key.schema() + "'");
    }
    File parent = new File(modelUri).getParentFile();
    operand.putIfAbsent("modelUri", modelUri);
    operand.putIfAbsent("baseDirectory", parent == null ? new File("") : parent);
    return ModelParser.parse(key.schema(), operand, System::getenv);
  }

  /** Waits until no execution that entered under a superseded snapshot is open. */
  void drain(long deadline) throws TimeoutException, InterruptedException {
    synchronized (lock) {
      while (true) {
        draining.removeIf(s -> s.open.get() == 0);
        if (draining.isEmpty()) {
          return;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          int running = draining.stream().mapToInt(s -> s.open.get()).sum();
          throw new TimeoutException(running + " execution" + (running == 1 ? "" : "s")
              + " of schema '" + key.schema() + "' under an older version of "
              + (lease == null ? "model file " + key.source() : "its model") + " still run"
              + (running == 1 ? "s" : ""));
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
    }
  }
}
