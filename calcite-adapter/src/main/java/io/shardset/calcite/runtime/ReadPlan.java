package io.shardset.calcite.runtime;

import io.shardset.execution.RowReader;
import io.shardset.execution.ScanOptions;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Comparator;
import java.util.Objects;

/**
 * How the rows of a scan's shards are read and combined, as planned.
 *
 * @param reader reads each row of a shard's result
 * @param parallelism the most shards asked at once, or null for the default
 * @param mergeOrder the order in which every shard returns its rows, so that their streams
 *     are merged in it; null to concatenate them as they come
 * @param anyShardAnswers whether every shard holds the rows (a duplicated table), so that
 *     when the target shard cannot be reached the others are tried in turn
 * @param fewRowsExpected whether the condition fixes the shard key to a few values, so that
 *     each shard most likely returns few rows (see {@link ScanOptions#fewRowsExpected()})
 * @param lockable whether each shard's SQL can end with {@code FOR UPDATE}: it reads rows of
 *     tables, not groups, distinct values or unions, so the rows it returns can be locked
 */
public record ReadPlan(RowReader reader, @Nullable Integer parallelism,
    @Nullable Comparator<@Nullable Object[]> mergeOrder, boolean anyShardAnswers,
    boolean fewRowsExpected, boolean lockable) {
  public ReadPlan {
    Objects.requireNonNull(reader, "reader");
  }
}
