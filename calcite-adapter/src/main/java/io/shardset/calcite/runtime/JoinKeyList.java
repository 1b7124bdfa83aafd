package io.shardset.calcite.runtime;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One execution's key list for a shard scan's column: the scan's SQL is read as a common
 * table expression whose rows are kept where the column is in the list, which each shard's
 * optimizer pushes into the scan (PostgreSQL inlines the expression, MariaDB pushes the
 * condition into it).
 *
 * @param column the scan's output column
 * @param values the keys, bound as the column's type: none is null
 * @param shardKey whether the column is the scan's one-column shard key (see
 *     {@link BindColumn#shardKey()})
 */
record JoinKeyList(int column, List<Object> values, boolean shardKey) {
  /** The name of the common table expression, which no generated SQL uses otherwise. */
  private static final String NAME = "shardset_keys";

  JoinKeyList {
    values = List.copyOf(values);
  }

  /** The keys of {@code bind} for one execution, converted as query parameters are. */
  static JoinKeyList of(BindColumn bind, List<Object> keys) {
    final ParameterBinder binder = new ParameterBinder(Map.of(0, bind.type()));
    final List<Object> values = new ArrayList<>(keys.size());
    for (Object key : keys) {
      final @Nullable Object value = binder.bind(0, key);
      if (value != null) {
        values.add(value);
      }
    }
    return new JoinKeyList(bind.column(), values, bind.shardKey());
  }

  /** The list of some of these keys. */
  JoinKeyList only(List<Object> some) {
    return new JoinKeyList(column, some, shardKey);
  }

  /** {@code sql}, of {@code columns} columns, keeping the rows whose column is a key. */
  String wrap(String sql, int columns) {
    final StringBuilder text = new StringBuilder("WITH ").append(NAME).append(" (");
    for (int i = 0; i < columns; i++) {
      text.append(i == 0 ? "" : ", ").append('c').append(i);
    }
    text.append(") AS (").append(sql).append(") SELECT * FROM ").append(NAME)
        .append(" WHERE c").append(column).append(" IN (");
    for (int i = 0; i < values.size(); i++) {
      text.append(i == 0 ? "?" : ", ?");
    }
    return text.append(')').toString();
  }
}
