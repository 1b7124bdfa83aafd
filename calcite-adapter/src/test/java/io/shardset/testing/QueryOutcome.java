package io.shardset.testing;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one execution of a query through ShardSet gave and did: its rows (canonical, in the
 * order returned) or the error it failed with, and what each shard was sent and read.
 *
 * @param rows the rows read before the query ended or failed
 * @param error the error the query failed with, or null
 * @param executions the statements each shard executed, by shard, in the fixture's order
 * @param rowsRead the rows read from each shard's result sets, by shard
 */
public record QueryOutcome(List<String> rows, @Nullable SQLException error,
    Map<String, List<CountingShards.Execution>> executions, Map<String, Long> rowsRead) {
  public QueryOutcome {
    rows = List.copyOf(rows);
    executions = Map.copyOf(executions);
    rowsRead = Map.copyOf(rowsRead);
  }

  /** The rows read from all shards. */
  public long totalRowsRead() {
    return rowsRead.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The shards that executed at least one statement, sorted by name. */
  public Set<String> reached() {
    final Set<String> reached = new TreeSet<>();
    executions.forEach((shard, list) -> {
      if (!list.isEmpty()) {
        reached.add(shard);
      }
    });
    return reached;
  }

  /** The statements one shard executed, oldest first. */
  public List<CountingShards.Execution> executions(String shard) {
    return executions.getOrDefault(shard, List.of());
  }

  /** The statements all shards executed. */
  public int statementsExecuted() {
    return executions.values().stream().mapToInt(List::size).sum();
  }
}
