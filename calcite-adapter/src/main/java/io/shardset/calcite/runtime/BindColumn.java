package io.shardset.calcite.runtime;

import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Objects;

/**
 * The column of a shard scan that a bind join filters by the keys of its other side.
 *
 * @param keys where an execution's keys come from
 * @param column the scan's output column the keys are compared with
 * @param type the column's type, which the keys are bound as
 * @param shardKey whether the column is the one-column shard key of the scan's tables, so that
 *     each shard is sent only the keys it can hold
 */
public record BindColumn(BindJoinKeys keys, int column, SqlTypeName type, boolean shardKey) {
  public BindColumn {
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(type, "type");
    if (column < 0) {
      throw new IllegalArgumentException("column must not be negative, got " + column);
    }
  }
}
