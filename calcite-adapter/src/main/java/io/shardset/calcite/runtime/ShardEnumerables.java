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
    return shaped(query, new AbstractEnumerable<>() {
      @Override public Enumerator<Object[]> enumerator() {
        final List<Object> keys = bind == null ? null : bind.keys().keys(root);
        // The scan belongs to the statement and connection running it, which close it when
        // they close, whatever happened above it.
        return openScans.track(root, query.open(root, openScans.services(),
            sessions.of(root.getQueryProvider()),
            keys == null ? null : JoinKeyList.of(bind, keys)));
      }
    });
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
