package io.shardset.reshard;

import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.TableSpec;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.Topology;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tables a move carries and the shards it involves, read from the shards as the model
 * during the move describes them.
 */
final class MovingFamily {
  private final List<CarriedTable> tables;
  private final List<ReshardSpec.MoveSpec> moves;
  private final List<String> shards;

  private MovingFamily(List<CarriedTable> tables, List<ReshardSpec.MoveSpec> moves,
      List<String> shards) {
    this.tables = List.copyOf(tables);
    this.moves = List.copyOf(moves);
    this.shards = List.copyOf(shards);
  }

  /**
   * The family of a move.
   *
   * @param during the model that records the move (in either phase)
   * @param before the model whose chunk map names the sources
   * @param after the model whose chunk map names the targets
   * @param topology resolves the tables against the shards
   */
  static MovingFamily of(ShardSetModel during, ShardSetModel before, ShardSetModel after,
      Topology topology) {
    ReshardSpec reshard = during.reshard();
    Map<String, ShardedTable> schema = topology.tables(during);
    List<CarriedTable> tables = new ArrayList<>();
    for (TableSpec spec : during.tables()) {
      if (reshard.carries(spec)) {
        ShardedTable table = schema.get(spec.name());
        tables.add(new CarriedTable(table, RowOwners.of(table, before),
            RowOwners.of(table, after)));
      }
    }
    Set<String> shards = new LinkedHashSet<>();
    reshard.moves().forEach(m -> shards.add(m.source()));
    reshard.moves().forEach(m -> shards.add(m.target()));
    return new MovingFamily(tables, reshard.moves(), new ArrayList<>(shards));
  }

  /**
   * Every table that a move could have carried, on all its shards, for dropping move tables a
   * finished move left behind.
   */
  static MovingFamily leftovers(ShardSetModel model, Topology topology) {
    Map<String, ShardedTable> schema = topology.tables(model);
    List<CarriedTable> tables = new ArrayList<>();
    Set<String> shards = new LinkedHashSet<>();
    for (TableSpec spec : model.tables()) {
      if (!spec.hashedShardspaces().isEmpty()) {
        tables.add(new CarriedTable(schema.get(spec.name()), null, null));
        shards.addAll(spec.shards());
      }
    }
    return new MovingFamily(tables, List.of(), new ArrayList<>(shards));
  }

  List<CarriedTable> tables() {
    return tables;
  }

  /** The shards the move involves: sources, then targets. */
  List<String> shards() {
    return shards;
  }

  /** The shards rows leave, in move order. */
  List<String> sources() {
    return moves.stream().map(ReshardSpec.MoveSpec::source).distinct().toList();
  }

  /** The shards rows reach, in move order. */
  List<String> targets() {
    return moves.stream().map(ReshardSpec.MoveSpec::target).distinct().toList();
  }

  /** The sources that send rows to a target. */
  List<String> sourcesOf(String target) {
    return moves.stream().filter(m -> m.target().equals(target))
        .map(ReshardSpec.MoveSpec::source).distinct().toList();
  }

  /** The physical tables of the family on a shard that holds them. */
  List<TablePart> parts(String shard) {
    List<TablePart> parts = new ArrayList<>();
    for (CarriedTable table : tables) {
      if (table.table().shardIndex(shard) >= 0) {
        parts.addAll(table.parts(shard));
      }
    }
    return parts;
  }

  /** A pooled connection to a shard of the family. */
  Connection connect(String shard) throws SQLException {
    for (CarriedTable table : tables) {
      int index = table.table().shardIndex(shard);
      if (index >= 0) {
        return table.table().site(index).endpoint().connect();
      }
    }
    throw new IllegalArgumentException("no moving table lives on shard '" + shard + "'");
  }
}
