package io.shardset.calcite.runtime;

import io.shardset.execution.ShardEndpoint;
import io.shardset.transaction.TransactionCoordinator;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * The shards of the table that drives a scan, numbered as the plan numbers them.
 *
 * @param tableName the table's qualified name, for messages and logs
 * @param names each shard's name
 * @param endpoints each shard's connection pool
 * @param coordinator the coordinator of the transactions on the shards, whose transaction a
 *     read may join
 * @param tables the qualified names of every table the scan reads, the driving one first:
 *     a transaction that locks the rows of one of them locks the scan's rows
 */
public record ScanShards(String tableName, List<String> names, List<ShardEndpoint> endpoints,
    TransactionCoordinator coordinator, List<String> tables) {
  public ScanShards {
    Objects.requireNonNull(tableName, "tableName");
    Objects.requireNonNull(coordinator, "coordinator");
    tables = List.copyOf(tables);
    names = List.copyOf(names);
    endpoints = List.copyOf(endpoints);
  }

  /** The number of shards. */
  int count() {
    return endpoints.size();
  }

  /** The names of some of the shards, e.g. {@code [s0, s2]}. */
  List<String> names(BitSet shards) {
    final List<String> result = new ArrayList<>();
    shards.stream().forEach(i -> result.add(names.get(i)));
    return result;
  }
}
