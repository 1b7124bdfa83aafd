package io.shardset.transaction;

import io.shardset.execution.LastingScheduler;
import io.shardset.execution.ShardEndpoint;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Begins the transactions of one model's shards, decides those that span several, and
 * recovers the ones a failure left prepared but unfinished.
 *
 * <p>A transaction that wrote to one shard commits there, locally. One that wrote to several
 * commits in two phases, each shard with its own statements (see {@link CommitProtocol}): every
 * shard prepares it; then the commit decision is recorded, durably, in the decision log
 * ({@link DecisionLog}); then every shard commits it. A failure before the record rolls it
 * back everywhere; after the record, it is committed, and recovery finishes what a failure
 * left prepared.
 *
 * <p>Recovery ({@link #recover()}) runs when the coordinator starts with a log that exists,
 * and then every {@link TransactionSettings#recoveryInterval()} on a daemon thread until the
 * coordinator closes.
 */
public final class TransactionCoordinator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final TransactionSettings settings;
  private final Steps steps;
  private final boolean recoverInBackground;
  /** The model's shards, and any other a transaction enlisted, by name. */
  private final Map<String, ShardEndpoint> shards = new ConcurrentHashMap<>();
  private final Map<ShardEndpoint, CommitProtocol> backends = new ConcurrentHashMap<>();
  /** The transactions between their first prepare and their end, in this process. */
  private final Set<String> inProgress = ConcurrentHashMap.newKeySet();
  private final AtomicLong numbers = new AtomicLong();
  private final AtomicLong sequences = new AtomicLong();
  /** The transactions that hold a shard's connection. */
  private final Set<ShardTransaction> live = ConcurrentHashMap.newKeySet();
  /** Where branches prepare and commit in parallel; created on first use. */
  private @Nullable ExecutorService threads;
  private final DeadlockDetector deadlocks = new DeadlockDetector(this);
  /** Runs the deadlock check; started when the first transaction goes live. */
  private volatile @Nullable ScheduledExecutorService deadlockChecks;
  /** The records the last recovery pass found no branch of; guarded by recovering. */
  private Set<String> unseen = Set.of();
  /** The instance id of transactions begun while no decision log could be opened. */
  private final String unloggedInstance = Long.toString(RANDOM.nextLong() >>> 24,
      Character.MAX_RADIX);
  /** Guards {@link #log}, {@link #recovery} and {@link #closed}. */
  private final Object lock = new Object();
  /** Held by a recovery pass: two would race to finish the same branches. */
  private final Object recovering = new Object();
  private @Nullable DecisionLog log;
  private @Nullable ScheduledExecutorService recovery;
  private boolean closed;

  /**
   * A coordinator with no decision log, for schemas that do not write across shards: a
   * transaction across shards fails to commit.
   */
  public TransactionCoordinator() {
    this(TransactionSettings.withoutLog("", "this coordinator was created without a decision"
        + " log"), Map.of());
  }

  /**
   * A coordinator for a schema's shards. When its decision log exists it is opened and the
   * shards are recovered right away, in the background; otherwise the log is created by the
   * first transaction that needs it.
   *
   * @param shards the model's shards by name; recovery looks at these, and at any other a
   *     transaction enlisted
   */
  public TransactionCoordinator(TransactionSettings settings,
      Map<String, ? extends ShardEndpoint> shards) {
    this(settings, shards, Steps.NONE, true);
  }

  /**
   * A coordinator that tells its steps to {@code steps}, and recovers only when asked
   * ({@link #recover()}) unless {@code recoverInBackground}.
   */
  TransactionCoordinator(TransactionSettings settings,
      Map<String, ? extends ShardEndpoint> shards, Steps steps, boolean recoverInBackground) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.steps = Objects.requireNonNull(steps, "steps");
    this.recoverInBackground = recoverInBackground;
    this.shards.putAll(shards);
    if (settings.log() != null && settings.log().exists()) {
      try {
        openLog(true);
      } catch (SQLException e) {
        LOG.warn("Schema {}: {}; retried when a transaction needs it", settings.scope(),
            e.getMessage());
      }
    }
  }

  /** Begins a transaction that enlists shards as it writes to them or reads them. */
  public ShardTransaction begin() {
    return begin(TransactionOptions.DEFAULT);
  }

  /** Begins a transaction as {@code options} say. */
  public ShardTransaction begin(TransactionOptions options) {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the transaction coordinator of schema '"
            + settings.scope() + "' is closed");
      }
    }
    return new ShardTransaction(this, options, sequences.incrementAndGet());
  }

  /**
   * Begins the transaction of one statement in autocommit mode, which may send that
   * statement alone to one shard in the shard's own autocommit mode (see
   * {@link ShardTransaction#connectionForOnlyStatement}).
   */
  public ShardTransaction beginStatement() {
    return begin(TransactionOptions.STATEMENT);
  }

  /** The transactions that hold a shard's connection now, in the order they began. */
  public List<ShardTransaction> liveTransactions() {
    final List<ShardTransaction> all = new ArrayList<>(live);
    all.sort(Comparator.comparingLong(ShardTransaction::sequence));
    return all;
  }

  /** A transaction enlisted its first shard; the deadlock check starts with the first. */
  void live(ShardTransaction transaction) {
    live.add(transaction);
    if (deadlockChecks == null && !settings.deadlockCheck().isZero()) {
      startDeadlockChecks();
    }
  }

  private void startDeadlockChecks() {
    synchronized (lock) {
      if (deadlockChecks != null || closed) {
        return;
      }
      final ScheduledExecutorService checks =
          new LastingScheduler("shardset-deadlocks-" + settings.scope());
      final long interval = settings.deadlockCheck().toMillis();
      checks.scheduleWithFixedDelay(this::checkDeadlocks, interval, interval,
          TimeUnit.MILLISECONDS);
      deadlockChecks = checks;
    }
  }

  private void checkDeadlocks() {
    try {
      if (live.size() >= 2) {
        deadlocks.check();
      }
    } catch (RuntimeException | Error e) {
      // The check must outlive any one failure; a missed pass is made up by the next.
      LOG.warn("Checking the transactions of schema {} for deadlocks failed", settings.scope(),
          e);
    }
  }

  /** Looks for deadlocks across shards now, ending those it finds; returns how many. */
  public int checkDeadlocksNow() {
    return deadlocks.check().size();
  }

  /** How many deadlocks across shards this coordinator ended. */
  public long deadlocksEnded() {
    return deadlocks.deadlocksEnded();
  }

  /** A transaction ended and let go of its shards. */
  void ended(ShardTransaction transaction) {
    live.remove(transaction);
  }

  /**
   * Runs the tasks at once, on the coordinator's threads and the caller's, and returns when
   * all have ended: each one's failure (Errors too) in the tasks' order, null where it
   * succeeded.
   */
  List<Throwable> inParallel(List<Callable<Void>> tasks) {
    final Throwable[] failures = new Throwable[tasks.size()];
    final List<Future<?>> running = new ArrayList<>();
    for (int i = 1; i < tasks.size(); i++) {
      final int task = i;
      try {
        running.add(threads().submit(() -> run(tasks.get(task), failures, task)));
      } catch (RejectedExecutionException e) {
        // Closed meanwhile: the caller runs it.
        run(tasks.get(task), failures, task);
      }
    }
    if (!tasks.isEmpty()) {
      run(tasks.get(0), failures, 0);
    }
    boolean interrupted = false;
    for (Future<?> task : running) {
      while (true) {
        try {
          task.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          // run() keeps every failure.
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return Arrays.asList(failures);
  }

  private static void run(Callable<Void> task, Throwable[] failures, int index) {
    try {
      task.call();
    } catch (Throwable e) {
      failures[index] = e;
    }
  }

  private ExecutorService threads() {
    synchronized (lock) {
      if (closed) {
        throw new RejectedExecutionException("closed");
      }
      if (threads == null) {
        final AtomicLong number = new AtomicLong();
        threads = Executors.newCachedThreadPool(task -> {
          final Thread thread = new Thread(task, "shardset-commit-" + settings.scope() + "-"
              + number.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
      }
      return threads;
    }
  }

  /** How this coordinator decides. */
  public TransactionSettings settings() {
    return settings;
  }

  /**
   * Finishes the transactions the shards hold prepared that this coordinator's log decided
   * or that no live coordinator will decide any more (see {@link Recovery}).
   *
   * @return what it did; {@link RecoveryReport#NOTHING} when there is no decision log
   * @throws SQLException if the decision log cannot be read
   */
  public RecoveryReport recover() throws SQLException {
    final DecisionLog current;
    synchronized (lock) {
      final LogDatabase database = settings.log();
      // Another process (or coordinator) may have created the log since this one started.
      current = log != null || database == null || !database.exists() ? log
          : openLog(false);
    }
    if (current == null) {
      return RecoveryReport.NOTHING;
    }
    synchronized (recovering) {
      final RecoveryReport report = new Recovery(this, current, current.instance())
          .run(Map.copyOf(shards));
      if (!report.isEmpty()) {
        LOG.info("Recovery of schema {}: {}", settings.scope(), report);
      }
      return report;
    }
  }

  /** Stops recovering and lets go of the decision log; more than once is fine. */
  @Override public void close() {
    final DecisionLog closing;
    final ScheduledExecutorService stopping;
    synchronized (lock) {
      closed = true;
      closing = log;
      stopping = recovery;
      log = null;
      recovery = null;
    }
    if (stopping != null) {
      stopping.shutdownNow();
    }
    final ExecutorService parallel;
    final ScheduledExecutorService checks;
    synchronized (lock) {
      parallel = threads;
      threads = null;
      checks = deadlockChecks;
      deadlockChecks = null;
    }
    if (parallel != null) {
      parallel.shutdown();
    }
    if (checks != null) {
      checks.shutdownNow();
    }
    if (closing != null) {
      closing.close();
    }
  }

  /** The id of a new transaction: in the decision log when it can be opened. */
  GlobalId newId() {
    final long number = numbers.incrementAndGet();
    try {
      final DecisionLog current = openLog(false);
      return new GlobalId(current.logId(), current.instance(), number);
    } catch (SQLException e) {
      LOG.debug("Schema {}: no decision log for transaction {}: {}", settings.scope(), number,
          e.getMessage());
      return new GlobalId(GlobalId.UNLOGGED, unloggedInstance, number);
    }
  }

  /**
   * The decision log, opened (and created) on first use.
   *
   * @throws SQLException saying why there is none
   */
  DecisionLog openLog(boolean recoverNow) throws SQLException {
    synchronized (lock) {
      if (log != null) {
        return log;
      }
      if (closed) {
        throw new SQLException("the transaction coordinator of schema '" + settings.scope()
            + "' is closed");
      }
      final LogDatabase database = settings.log();
      if (database == null) {
        throw new SQLException("no decision log: " + settings.noLog());
      }
      log = DecisionLog.open(database);
      if (recoverInBackground) {
        recovery = new LastingScheduler("shardset-recovery-" + settings.scope());
        final long interval = settings.recoveryInterval().toMillis();
        recovery.scheduleWithFixedDelay(this::recoverQuietly, recoverNow ? 0 : interval,
            interval, TimeUnit.MILLISECONDS);
      }
      return log;
    }
  }

  private void recoverQuietly() {
    try {
      recover();
    } catch (SQLException | RuntimeException e) {
      LOG.warn("Recovery of schema {} failed: {}", settings.scope(), e.getMessage());
    }
  }

  /** The backend of a shard, learnt from its first connection. */
  CommitProtocol backend(ShardEndpoint shard, Connection connection) throws SQLException {
    final CommitProtocol known = backends.get(shard);
    if (known != null) {
      return known;
    }
    final CommitProtocol backend = CommitProtocol.of(connection);
    backends.put(shard, backend);
    return backend;
  }

  /** Remembers a shard a transaction enlisted, for recovery to look at too. */
  void enlisted(ShardEndpoint shard) {
    shards.putIfAbsent(shard.name(), shard);
  }

  Steps steps() {
    return steps;
  }

  void started(GlobalId id) {
    inProgress.add(id.text());
  }

  void finished(GlobalId id) {
    inProgress.remove(id.text());
  }

  /** Whether the last recovery pass found no branch of this recorded transaction. */
  boolean wasUnseen(String gid) {
    return unseen.contains(gid);
  }

  /** The records this recovery pass found no branch of. */
  void unseen(Set<String> gids) {
    unseen = Set.copyOf(gids);
  }

  boolean isInProgress(GlobalId id) {
    return inProgress.contains(id.text());
  }

  /** The shards recovery looks at, by name, in no particular order. */
  Map<String, ShardEndpoint> shards() {
    return new LinkedHashMap<>(shards);
  }
}
