package io.shardset.topology;

import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;
import io.shardset.util.SuppressForbidden;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
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
 * A schema's model as its model file says now, for the parts that may change while the
 * process runs (the chunk map and a resharding in progress); shared by every connection of
 * a {@link LiveModels} registry that reads that file.
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

  /** One execution running under a snapshot; closing it (more than once is fine) ends it. */
  public interface Ticket extends AutoCloseable {
    /** The snapshot the execution runs under. */
    Snapshot snapshot();

    @Override void close();
  }

  /** What a registry knows a live model by: its model file and its schema. */
  record Key(Path file, String schema) {
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
  }

  /** The model file this live model reads. */
  public Path file() {
    return key.file();
  }

  /** Whether this model was read as {@code initial} says, at the last look at its file. */
  boolean holds(ShardSetModel initial) {
    return initial.equals(state.snapshot.model());
  }

  /** The current snapshot; re-reads the file when it changed (checked at most every 200 ms). */
  public Snapshot current() {
    long now = System.nanoTime();
    long due = nextCheck.get();
    if (now - due >= 0 && nextCheck.compareAndSet(due, now + CHECK_NANOS)) {
      refresh(false);
    }
    return state.snapshot;
  }

  /** Starts an execution under the current snapshot. */
  public Ticket enter() {
    current();
    while (true) {
      State entered = state;
      entered.open.incrementAndGet();
      if (entered == state) {
        return new OpenTicket(entered, heldTickets.get());
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
    }
  }

  /** An open execution. */
  private final class OpenTicket implements Ticket {
    private final State entered;
    /** The entering thread's count of open tickets; closing may happen on another thread. */
    private final AtomicInteger held;
    private final AtomicBoolean closed = new AtomicBoolean();

    OpenTicket(State entered, AtomicInteger held) {
      this.entered = entered;
      this.held = held;
      held.incrementAndGet();
    }

    @Override public Snapshot snapshot() {
      return entered.snapshot;
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

  /** Reads the file if it changed (always when {@code force}) and publishes what it says. */
  @SuppressForbidden(reason = "wakes the writers that wait on the lock for a new snapshot")
  void refresh(boolean force) {
    synchronized (lock) {
      FileStamp now = FileStamp.of(key.file());
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
              + " {}", key.schema(), key.file(), e.getMessage());
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
          key.schema(), key.file(), next.snapshot.version());
    }
  }

  /** The schema's operand as the file says it, completed as Calcite's model handler does. */
  private ShardSetModel read() throws IOException {
    Map<?, ?> root = JSON.readValue(key.file().toFile(), Map.class);
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
              + " of schema '" + key.schema() + "' under an older version of model file "
              + key.file() + " still run" + (running == 1 ? "s" : ""));
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
    }
  }
}
