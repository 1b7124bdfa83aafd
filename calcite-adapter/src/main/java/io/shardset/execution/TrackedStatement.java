package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client statement's execution while it runs and after: who runs it, its SQL, when it
 * started, its planning time and the statements its shards got ({@link ShardRun}). Registered
 * in a {@link StatementTracker} from its execution until its rows are closed.
 */
public final class TrackedStatement {
  private final long id;
  private final Object connection;
  private final String user;
  private final String sql;
  private final AtomicBoolean cancelFlag;
  private final boolean seesEveryUser;
  private final Instant started = Instant.now();
  private final long startNanos = System.nanoTime();
  private final Queue<ShardRun> shardRuns = new ConcurrentLinkedQueue<>();
  private volatile long planningNanos;
  private volatile long endNanos;
  private volatile @Nullable String outcome;
  /** Whether the statement reads ShardSet's own statement tables, which do not count as a
   * connection's last statement. */
  private volatile boolean introspective;

  TrackedStatement(long id, Object connection, String user, String sql,
      AtomicBoolean cancelFlag, boolean seesEveryUser) {
    this.seesEveryUser = seesEveryUser;
    this.id = id;
    this.connection = Objects.requireNonNull(connection, "connection");
    this.user = Objects.requireNonNull(user, "user");
    this.sql = Objects.requireNonNull(sql, "sql");
    this.cancelFlag = Objects.requireNonNull(cancelFlag, "cancelFlag");
  }

  /** The statement's number, unique in the process. */
  public long id() {
    return id;
  }

  /** The connection that runs it (compared by identity). */
  public Object connection() {
    return connection;
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
    return started;
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

  /** Null while it runs, then how it ended: ok, error or canceled. */
  public @Nullable String outcome() {
    return outcome;
  }

  /** The statements its shards got, in the order they started. */
  public List<ShardRun> shardRuns() {
    return new ArrayList<>(shardRuns);
  }

  /** The shards it reached, each once, in the order first reached. */
  public Set<String> shards() {
    final Set<String> shards = new LinkedHashSet<>();
    for (ShardRun run : shardRuns) {
      shards.add(run.shard());
    }
    return shards;
  }

  /** The rows its shards returned so far. */
  public long shardRows() {
    long rows = 0;
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
  ShardRun startShard(String shard, String shardSql) {
    final ShardRun run = new ShardRun(shard, shardSql, System.nanoTime());
    shardRuns.add(run);
    return run;
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
