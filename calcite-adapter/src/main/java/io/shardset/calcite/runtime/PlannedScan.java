package io.shardset.calcite.runtime;

import io.shardset.calcite.guard.ScatterGuard;

import org.apache.calcite.DataContext;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;
import java.util.function.IntFunction;

/**
 * What was planned for one shard scan, fixed when the statement is prepared: the shards, the
 * SQL each can be sent, how the target shards and subpartitions are found, how parameters are
 * bound and rows read.
 *
 * <p>Immutable: a prepared statement shares one instance across executions (and threads). It
 * holds no planner objects.
 *
 * @param subpartitions how query parameters select the subpartitions the scan reads, or null
 *     when the plan fixes them
 * @param guard how many shards each execution may reach
 */
public record PlannedScan(ScanShards shards, ShardStatements statements,
    @Nullable SubpartitionChoice subpartitions, ShardRouting routing, ParameterBinder binder,
    ReadPlan read, ScatterGuard guard) {
  public PlannedScan {
    Objects.requireNonNull(guard, "guard");
    Objects.requireNonNull(shards, "shards");
    Objects.requireNonNull(statements, "statements");
    Objects.requireNonNull(routing, "routing");
    Objects.requireNonNull(binder, "binder");
    Objects.requireNonNull(read, "read");
  }

  /** The parameter values of an execution, converted to the parameters' types: what the
   * shards are sent, and what routing uses, so that both agree. A TIMESTAMP finer than a
   * millisecond is sent exactly ({@link TimestampParameter}). */
  IntFunction<@Nullable Object> bound(DataContext root) {
    return i -> binder.bind(i, TimestampParameter.value(root, i));
  }
}
