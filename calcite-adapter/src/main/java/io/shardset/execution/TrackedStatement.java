package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client statement's execution while it runs and after: who runs it, its SQL, when it
 * started, its planning time and the statements its shards got ({@link ShardRun}). Registered
 * in a {@link StatementTracker} from its execution until its rows are closed.
 *
 * <p>It keeps the first {@value #KEPT_RUNS} shard statements in full; a statement that runs
 * more (a scan opened again for each outer row, say) counts the others and their rows.
 */
public final class TrackedStatement {
  /** The most shard statements kept in full. */
  public static final int KEPT_RUNS = 1_000;

  private final long id;
  private final Object session;
  private final String user;
  private final String sql;
  private final AtomicBoolean cancelFlag;
  private final boolean seesEveryUser;
  private final long startedMillis = System.currentTimeMillis();
  private final long startNanos = System.nanoTime();
  private final Queue<ShardRun> shardRuns = new ConcurrentLinkedQueue<>();
  private final AtomicInteger runCount = new AtomicInteger();
  /** The shards reached, each once; as many as the model has at most. */
  private final Set<String> shards = ConcurrentHashMap.newKeySet();
  /** Rows of the shard statements not kept. */
  private final AtomicLong unkeptRows = new AtomicLong();
  private volatile long planningNanos;
  private volatile long endNanos;
  private volatile @Nullable String outcome;
  /** Whether the statement reads ShardSet's own statement tables, which do not count as a
   * connection's last statement. */
  private volatile boolean introspective;

  TrackedStatement(long id, Object session, String user, String sql, AtomicBoolean cancelFlag,
      boolean seesEveryUser) {
    this.id = id;
    this.session = Objects.requireNonNull(session, "session");
    this.user = Objects.requireNonNull(user, "user");
    this.sql = Objects.requireNonNull(sql, "sql");
    this.cancelFlag = Objects.requireNonNull(cancelFlag, "cancelFlag");
    this.seesEveryUser = seesEveryUser;
  }

  /** The statement's number, unique in the process. */
  public long id() {
    return id;
  }

  /** What stands for the connection that runs it (compared by identity). */
  public Object session() {
    return session;
  }

  /** The user of that connection. */
  public String user() {
    return user;
  }

  /** The SQL the client sent. */
  public String sql() {
    return sql;
  }

  /** When it started. */
  public Instant started() {
    return Instant.ofEpochMilli(startedMillis);
  }

  /** Its time so far, or until it ended, in milliseconds. */
  public long elapsedMillis() {
    final long end = endNanos;
    return TimeUnit.NANOSECONDS.toMillis((end != 0 ? end : System.nanoTime()) - startNanos);
  }

  /** The time its planning took in this execution (none for a statement prepared before). */
  public long planningMillis() {
    return TimeUnit.NANOSECONDS.toMillis(planningNanos);
  }

  /**
   * Whether this statement, which reads the statement tables or cancels, may see the other
   * in full and cancel it: one of its own user's, or any if its connection sees every user's.
   */
  public boolean mayTouch(TrackedStatement other) {
    return seesEveryUser || other.user.equals(user);
  }

  /** Whether its cancel flag is set. */
  public boolean canceled() {
    return cancelFlag.get();
  }

  /** Null while it runs, then how it ended: ok, closed (before its last row), error,
   * timeout or canceled. */
  public @Nullable String outcome() {
    return outcome;
  }

  /** The statements its shards got, in the order they started: the first
   * {@value #KEPT_RUNS}. */
  public List<ShardRun> shardRuns() {
    return new ArrayList<>(shardRuns);
  }

  /** How many statements its shards got. */
  public int shardStatements() {
    return runCount.get();
  }

  /** The shards it reached, each once, sorted by name. */
  public List<String> shards() {
    final List<String> sorted = new ArrayList<>(shards);
    sorted.sort(null);
    return sorted;
  }

  /** The rows its shards returned (or changed) so far. */
  public long shardRows() {
    long rows = unkeptRows.get();
    for (ShardRun run : shardRuns) {
      rows += run.rows();
    }
    return rows;
  }

  /** Adds planning time spent on it. */
  public void planned(long nanos) {
    planningNanos += nanos;
  }

  /** Marks it as reading the statement tables. */
  public void introspective() {
    introspective = true;
  }

  boolean isIntrospective() {
    return introspective;
  }

  AtomicBoolean cancelFlag() {
    return cancelFlag;
  }

  /** Starts a shard statement of it. */
  public ShardRun startShard(String shard, String shardSql) {
    shards.add(shard);
    final ShardRun run = new ShardRun(shard, shardSql, System.nanoTime());
    if (runCount.incrementAndGet() <= KEPT_RUNS) {
      shardRuns.add(run);
    } else {
      run.onEnd(unkeptRows::addAndGet);
    }
    return run;
  }

  /** Cancels it unless it has ended; returns whether it did. */
  synchronized boolean cancel() {
    if (outcome != null) {
      return false;
    }
    return cancelFlag.compareAndSet(false, true);
  }

  /** Records the end once; returns whether this call did. */
  synchronized boolean end(String how) {
    if (outcome != null) {
      return false;
    }
    final long now = System.nanoTime();
    endNanos = now == 0 ? 1 : now;
    outcome = cancelFlag.get() && !"ok".equals(how) ? "canceled" : how;
    return true;
  }
}
