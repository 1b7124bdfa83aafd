package io.shardset.calcite.runtime;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * How query parameters select the subpartitions a scan reads, at each execution.
 *
 * @param selector the subpartitions that can hold matching rows, given the parameter values
 * @param noneReadsNothing whether the pushed work returns no rows from empty tables, so that
 *     when no subpartition can hold a matching row no shard need be asked; false when it
 *     aggregates without GROUP BY inside the shard (it then returns one row), and the shards
 *     read one subpartition table whose rows the filters reject
 */
public record SubpartitionChoice(Function<IntFunction<Object>, BitSet> selector,
    boolean noneReadsNothing) {
  public SubpartitionChoice {
    Objects.requireNonNull(selector, "selector");
  }

  /** The subpartitions these parameter values select; null when no shard need be asked. */
  @Nullable BitSet selection(IntFunction<Object> params) {
    final BitSet selection = selector.apply(params);
    return selection.isEmpty() && noneReadsNothing ? null : selection;
  }
}
