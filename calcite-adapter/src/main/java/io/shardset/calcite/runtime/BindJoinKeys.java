package io.shardset.calcite.runtime;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.Types;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The join keys one side of a bind join hands to the shard scan on its other side: the small
 * side's rows are read first, once per execution, and their distinct non-null keys go into the
 * scan's shard SQL as a key list, so that the shards send only the rows that can join. A side
 * with more keys or rows than the limits is not kept: the scan then reads as planned, and the
 * side is read again where the join reads it.
 *
 * <p>One instance per plan, shared by its executions (a prepared statement's, and every
 * connection's that runs the cached plan): each execution's side is found by its
 * {@link DataContext}, for as long as the execution runs.
 */
public final class BindJoinKeys {
  /** {@link #collect}, for code generation. */
  public static final Method COLLECT = Types.lookupMethod(BindJoinKeys.class, "collect",
      DataContext.class, Enumerable.class, Function1.class);

  private final int maxKeys;
  private final int maxRows;
  /**
   * Each running execution's small side, by the execution's context; guarded by itself. Both
   * references are weak: the side holds its input, whose generated code holds the context, and
   * a strong side would keep its own key; the execution's operators hold the side while they
   * run.
   */
  private final Map<DataContext, WeakReference<Side>> executions = new WeakHashMap<>();

  /**
   * Keys of at most {@code maxKeys} distinct values, from a side of at most {@code maxRows}
   * rows.
   */
  public BindJoinKeys(int maxKeys, int maxRows) {
    if (maxKeys < 1 || maxRows < maxKeys) {
      throw new IllegalArgumentException("maxKeys must be positive and maxRows at least"
          + " maxKeys, got " + maxKeys + " and " + maxRows);
    }
    this.maxKeys = maxKeys;
    this.maxRows = maxRows;
  }

  /** The most distinct keys a scan is sent. */
  public int maxKeys() {
    return maxKeys;
  }

  /**
   * The rows of the small side of one execution, read once for both the scan's key list and
   * the join; called where the execution builds its operators, before either reads.
   *
   * @param key the join key of a row
   */
  public <T> Enumerable<T> collect(DataContext root, Enumerable<T> input,
      Function1<T, @Nullable Object> key) {
    @SuppressWarnings("unchecked")
    final Side side = new Side((Enumerable<Object>) input,
        (Function1<Object, @Nullable Object>) key);
    synchronized (executions) {
      executions.put(root, new WeakReference<>(side));
    }
    return new AbstractEnumerable<>() {
      @SuppressWarnings("unchecked")
      @Override public Enumerator<T> enumerator() {
        return (Enumerator<T>) side.rows();
      }
    };
  }

  /**
   * The distinct keys of an execution's small side, read now if not yet; null when it has
   * more than the limits allow (or the execution has none), and the scan reads as planned.
   */
  @Nullable List<Object> keys(DataContext root) {
    final WeakReference<Side> reference;
    synchronized (executions) {
      reference = executions.get(root);
    }
    final Side side = reference == null ? null : reference.get();
    return side == null ? null : side.keys();
  }

  /** One execution's small side. */
  private final class Side {
    private final Enumerable<Object> input;
    private final Function1<Object, @Nullable Object> key;
    private boolean read;
    private @Nullable List<Object> rows;
    private @Nullable List<Object> keys;

    Side(Enumerable<Object> input, Function1<Object, @Nullable Object> key) {
      this.input = input;
      this.key = key;
    }

    synchronized @Nullable List<Object> keys() {
      read();
      return keys;
    }

    synchronized Enumerator<Object> rows() {
      read();
      // Past the limits nothing was kept: the side is read again, as a plain join reads it.
      return rows == null ? input.enumerator() : Linq4j.enumerator(rows);
    }

    private void read() {
      if (read) {
        return;
      }
      read = true;
      final List<Object> all = new ArrayList<>();
      final Set<Object> distinct = new LinkedHashSet<>();
      try (Enumerator<Object> enumerator = input.enumerator()) {
        while (enumerator.moveNext()) {
          final Object row = enumerator.current();
          final Object value = key.apply(row);
          // A null key joins no row.
          if (value != null) {
            distinct.add(value);
          }
          all.add(row);
          if (distinct.size() > maxKeys || all.size() > maxRows) {
            return;
          }
        }
      }
      rows = Collections.unmodifiableList(all);
      keys = List.copyOf(distinct);
    }
  }
}
