package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The client statements running in a runtime, each a {@link TrackedStatement} found by its
 * number or by its cancel flag (which is how a shard scan, which sees only Calcite's data
 * context, finds the statement it serves), and each connection's last finished statement.
 * Cancelling one sets its flag, as {@link java.sql.Statement#cancel()} does: the
 * {@link CancelWatch} then cancels every shard statement it has running.
 */
public final class StatementTracker {
  private final AtomicLong ids = new AtomicLong();
  /** By cancel flag, which Calcite makes per statement and which compares by identity. */
  private final Map<AtomicBoolean, TrackedStatement> running = new ConcurrentHashMap<>();
  /** Each connection's last finished statement, by the connection (compared by identity). */
  private final Map<Object, TrackedStatement> last = new ConcurrentHashMap<>();
  /** The statement each thread is executing, which planning time is added to. */
  private final ThreadLocal<TrackedStatement> executing = new ThreadLocal<>();

  /** Creates a tracker with nothing running. */
  public StatementTracker() {
  }

  /**
   * Registers a statement's execution (whose connection sees every user's statements, or its
   * own user's only), which runs on this thread until {@link #executed}; an
   * execution of the same statement still registered (its rows never closed) ends first.
   */
  public TrackedStatement start(Object connection, String user, String sql,
      AtomicBoolean cancelFlag, boolean seesEveryUser) {
    final TrackedStatement statement = new TrackedStatement(ids.incrementAndGet(), connection,
        user, sql, cancelFlag, seesEveryUser);
    final TrackedStatement before = running.put(cancelFlag, statement);
    if (before != null) {
      end(before, "ok");
    }
    executing.set(statement);
    return statement;
  }

  /** Says that this thread no longer executes the statement (its rows may still be read). */
  public void executed() {
    executing.remove();
  }

  /** Adds planning time to the statement this thread executes, if any. */
  public void planned(long nanos) {
    final TrackedStatement statement = executing.get();
    if (statement != null) {
      statement.planned(nanos);
    }
  }

  /** The running statement whose cancel flag this is, or null. */
  public @Nullable TrackedStatement of(@Nullable AtomicBoolean cancelFlag) {
    return cancelFlag == null ? null : running.get(cancelFlag);
  }

  /**
   * Ends a statement: returns whether this call did (false if it had ended already). It becomes
   * its connection's last statement unless it read the statement tables.
   */
  public boolean end(TrackedStatement statement, String how) {
    if (!statement.end(how)) {
      return false;
    }
    running.remove(statement.cancelFlag(), statement);
    if (!statement.isIntrospective()) {
      last.put(statement.connection(), statement);
    }
    return true;
  }

  /** Forgets a closed connection's last statement. */
  public void closed(Object connection) {
    last.remove(connection);
  }

  /** The running statements, by number. */
  public List<TrackedStatement> running() {
    final List<TrackedStatement> list = new ArrayList<>(running.values());
    list.sort(Comparator.comparingLong(TrackedStatement::id));
    return list;
  }

  /** The last statement the connection finished, or null. */
  public @Nullable TrackedStatement last(Object connection) {
    return last.get(connection);
  }

  /**
   * Cancels the running statement numbered {@code id} if {@code mayCancel} allows it;
   * returns whether a statement was canceled.
   */
  public boolean cancel(long id, Predicate<TrackedStatement> mayCancel) {
    for (TrackedStatement statement : running.values()) {
      if (statement.id() == id && statement.outcome() == null && mayCancel.test(statement)) {
        return statement.cancelFlag().compareAndSet(false, true);
      }
    }
    return false;
  }
}
