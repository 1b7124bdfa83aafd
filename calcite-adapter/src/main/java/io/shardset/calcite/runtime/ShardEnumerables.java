package io.shardset.calcite.runtime;

import io.shardset.calcite.OpenScans;
import io.shardset.session.Sessions;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.tree.Types;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Entry point that generated code calls to run a shard scan. */
public final class ShardEnumerables {
  /** {@link #execute(DataContext, ShardQuery, OpenScans, Sessions)}, for code generation. */
  public static final Method EXECUTE =
      Types.lookupMethod(ShardEnumerables.class, "execute", DataContext.class,
          ShardQuery.class, OpenScans.class, Sessions.class);

  /** {@link #executeBound}, for code generation. */
  public static final Method EXECUTE_BOUND =
      Types.lookupMethod(ShardEnumerables.class, "executeBound", DataContext.class,
          ShardQuery.class, OpenScans.class, Sessions.class, BindColumn.class);

  private ShardEnumerables() {
  }

  /**
   * The rows of a shard scan that a bind join filters: each execution first reads the other
   * side's keys ({@link BindJoinKeys}), and the shards send only the rows whose column is one
   * of them; none when there is none, and all when there are more than the limits allow.
   */
  public static Enumerable<?> executeBound(DataContext root, ShardQuery query,
      OpenScans openScans, Sessions sessions, BindColumn bind) {
    return scan(root, query, openScans, sessions, bind);
  }

  /** The rows of a shard scan; each enumeration is one execution against the shards.
   *
   * <p>Rows have the shape Calcite's generated code expects of the row type: an
   * {@code Object[]}, or the bare value when there is one column, or an empty list when there
   * is none.
   *
   * @param openScans where the scan is tracked until its statement or connection closes
   * @param sessions finds the session whose transaction the scan may read through */
  public static Enumerable<?> execute(DataContext root, ShardQuery query,
      OpenScans openScans, Sessions sessions) {
    return scan(root, query, openScans, sessions, null);
  }

  /** The rows of a shard scan, filtered by a bind join's keys when {@code bind} is not null. */
  private static Enumerable<?> scan(DataContext root, ShardQuery query, OpenScans openScans,
      Sessions sessions, @Nullable BindColumn bind) {
    // Generated code creates every scan's enumerable when the statement starts, before it
    // reads any: a scan planned to start early sends its statements now, and its first
    // enumeration reads them.
    final ExecutionScans execution = root.get(ExecutionScans.NAME) instanceof ExecutionScans x
        ? x : null;
    final AtomicReference<@Nullable Enumerator<Object[]>> started = new AtomicReference<>(
        bind == null && execution != null && query.startsEarly()
            ? startEarly(root, query, openScans, sessions, execution) : null);
    return shaped(query, new AbstractEnumerable<>() {
      @Override public Enumerator<Object[]> enumerator() {
        final Enumerator<Object[]> early = started.getAndSet(null);
        if (early != null) {
          execution.opened(early);
          return early;
        }
        final List<Object> keys = bind == null ? null : bind.keys().keys(root);
        // The scan belongs to the statement and connection running it, which close it when
        // they close, whatever happened above it.
        return openScans.track(root, query.open(root, openScans.services(),
            sessions.of(root.getQueryProvider()),
            keys == null ? null : JoinKeyList.of(bind, keys), false));
      }
    });
  }

  /**
   * The scan started now, or null if it cannot start: the first read then opens it as any
   * scan, and meets the same error, if it is read at all (a hash join whose other side has no
   * row reads none). Until an operator opens it, the execution holds it, and closes it when
   * it ends.
   */
  private static @Nullable Enumerator<Object[]> startEarly(DataContext root, ShardQuery query,
      OpenScans openScans, Sessions sessions, ExecutionScans execution) {
    final Enumerator<Object[]> scan;
    try {
      scan = openScans.track(root, query.open(root, openScans.services(),
          sessions.of(root.getQueryProvider()), null, true));
    } catch (RuntimeException e) {
      return null;
    }
    if (!execution.started(scan)) {
      scan.close();
      return null;
    }
    return scan;
  }

  /** The rows in the shape Calcite's generated code expects of the query's row type. */
  private static Enumerable<?> shaped(ShardQuery query, AbstractEnumerable<Object[]> rows) {
    switch (query.columnCount()) {
    case 0:
      return rows.select(row -> List.of());
    case 1:
      return rows.select(row -> row[0]);
    default:
      return rows;
    }
  }
}
