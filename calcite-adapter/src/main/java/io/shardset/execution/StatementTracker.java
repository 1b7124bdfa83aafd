package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

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
  /** Each connection's last finished statement, by what stands for the connection (an object
   * of its own, compared by identity, which holds nothing of it). */
  private final Map<Object, TrackedStatement> last = new ConcurrentHashMap<>();
  /** The statement each thread is executing, which planning time is added to. */
  private final ThreadLocal<TrackedStatement> executing = new ThreadLocal<>();

  /** Creates a tracker with nothing running. */
  public StatementTracker() {
  }

  /**
   * Registers a statement's execution (whose connection, represented by {@code session}, sees
   * every user's statements, or its own user's only), which runs on this thread until
   * {@link #executed}. The statement's cancel flag is cleared: a cancel stops one execution,
   * not the statement's later ones. The caller ends the statement's previous execution first;
   * one still registered ends here as closed.
   */
  public TrackedStatement start(Object session, String user, String sql,
      AtomicBoolean cancelFlag, boolean seesEveryUser) {
    final TrackedStatement before = running.get(cancelFlag);
    if (before != null) {
      end(before, "closed");
    }
    cancelFlag.set(false);
    final TrackedStatement statement = new TrackedStatement(ids.incrementAndGet(), session,
        user, sql, cancelFlag, seesEveryUser);
    running.put(cancelFlag, statement);
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
      last.put(statement.session(), statement);
    }
    return true;
  }

  /**
   * Forgets a closed connection's statements: ends those still registered, as closed, and
   * returns them; drops its last one. An end that races with this may leave a last one
   * behind, which holds nothing of the connection.
   */
  public List<TrackedStatement> closed(Object session) {
    final List<TrackedStatement> ended = new ArrayList<>();
    for (TrackedStatement statement : running.values()) {
      if (statement.session() == session && end(statement, "closed")) {
        ended.add(statement);
      }
    }
    last.remove(session);
    return ended;
  }

  /** The running statements, by number. */
  public List<TrackedStatement> running() {
    final List<TrackedStatement> list = new ArrayList<>(running.values());
    list.sort(Comparator.comparingLong(TrackedStatement::id));
    return list;
  }

  /** The last statement the connection finished, or null. */
  public @Nullable TrackedStatement last(Object session) {
    return last.get(session);
  }

  /**
   * Cancels the running statement numbered {@code id} for {@code caller}, if the caller may
   * ({@link TrackedStatement#mayTouch}) and it is not the caller itself; returns whether a
   * statement was canceled.
   */
  public boolean cancel(long id, TrackedStatement caller) {
    for (TrackedStatement statement : running.values()) {
      if (statement.id() == id) {
        return statement != caller && caller.mayTouch(statement) && statement.cancel();
      }
    }
    return false;
  }
}
