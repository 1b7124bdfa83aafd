package io.shardset.calcite.runtime;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The shard texts of a scan whose subpartitions query parameters select: each execution
 * selects its subpartitions, and the texts that read them are rendered the first time that
 * selection is met and kept, a bounded number of selections per prepared statement, least
 * recently used dropped first.
 *
 * <p>Thread-safe: executions of one prepared statement share it.
 */
public final class SubpartitionTexts {
  /** Selections kept; a table with k subpartitions has at most 2^k, usually a handful. */
  static final int KEPT = 32;

  private final Function<IntFunction<Object>, BitSet> selector;
  private final Function<BitSet, ShardTexts> renderer;
  private final boolean noneReadsNothing;
  private final TextCache<BitSet> kept = new TextCache<>(KEPT);

  /**
   * Creates the texts.
   *
   * @param selector the subpartitions that can hold matching rows, given the parameter values
   * @param renderer the texts that read a selection of subpartitions
   * @param noneReadsNothing whether the pushed work returns no rows from empty tables, so
   *     that when no subpartition can hold a matching row no shard need be asked; false when
   *     it aggregates without GROUP BY inside the shard (it then returns one row), and the
   *     shards read one subpartition table whose rows the filters reject
   */
  public SubpartitionTexts(Function<IntFunction<Object>, BitSet> selector,
      Function<BitSet, ShardTexts> renderer, boolean noneReadsNothing) {
    this.selector = Objects.requireNonNull(selector, "selector");
    this.renderer = Objects.requireNonNull(renderer, "renderer");
    this.noneReadsNothing = noneReadsNothing;
  }

  /** The texts for these parameter values; null when no shard need be asked. */
  @Nullable ShardTexts texts(IntFunction<Object> params) {
    final BitSet selection = selection(params);
    return selection == null ? null : kept.get(selection, () -> renderer.apply(selection));
  }

  /** The subpartitions these parameter values select; null when no shard need be asked. */
  @Nullable BitSet selection(IntFunction<Object> params) {
    final BitSet selection = selector.apply(params);
    return selection.isEmpty() && noneReadsNothing ? null : selection;
  }

  /** How many selections are kept now. */
  int keptCount() {
    return kept.size();
  }
}
