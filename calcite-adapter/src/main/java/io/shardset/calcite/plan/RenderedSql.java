package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * The pushed work as one SQL text, for the shards that share a dialect and a physical table.
 *
 * @param shards the table's shards (by index) this text is for
 * @param sql the statement, in those shards' dialect
 * @param parameters the query parameter index of each {@code ?} in the text, in order
 */
public record RenderedSql(BitSet shards, String sql, List<Integer> parameters) {
  public RenderedSql {
    shards = (BitSet) Objects.requireNonNull(shards, "shards").clone();
    Objects.requireNonNull(sql, "sql");
    parameters = List.copyOf(parameters);
  }

  @Override public BitSet shards() {
    return (BitSet) shards.clone();
  }

  /** The names of this text's shards, e.g. {@code [s0, s2]}. */
  String shardNames(ShardTable table) {
    final List<String> names = new ArrayList<>();
    shards.stream().forEach(i -> names.add(table.shardName(i)));
    return names.toString();
  }
}
