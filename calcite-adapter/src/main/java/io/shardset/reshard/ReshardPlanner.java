package io.shardset.reshard;

import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ListSpec;
import io.shardset.model.RangeSpec;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.ShardingMethod;
import io.shardset.model.TableSpec;
import io.shardset.routing.ChunkMap;
import io.shardset.routing.ChunkMoves;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans a resharding operation on a model: which whole hash ranges move between which shards
 * (see {@link ChunkMoves}), and the chunk map before and after, written out in full.
 */
public final class ReshardPlanner {
  private ReshardPlanner() {
  }

  /**
   * The plan of an operation.
   *
   * @throws IllegalArgumentException naming the shard, shardspace or range that makes the
   *     operation impossible
   */
  public static ReshardPlan plan(ShardSetModel model, Operation operation) {
    ReshardSpec running = model.reshard();
    if (running != null) {
      throw new IllegalArgumentException("schema '" + model.schema() + "' has a move in"
          + " progress (" + running.operation() + ", phase " + running.phase().modelName()
          + "); resume it before planning another");
    }
    if (operation instanceof Operation.AddShard add) {
      return addShard(model, add);
    } else if (operation instanceof Operation.RemoveShard remove) {
      return removeShard(model, remove);
    } else if (operation instanceof Operation.MoveRange move) {
      return moveRange(model, move);
    }
    return splitRange(model, (Operation.SplitRange) operation);
  }

  /**
   * The model's chunk map with the placement of every shardspace that hashes rows written out:
   * the model's entries, then the default placement of each such shardspace that has none.
   */
  public static List<ChunkMapSpec> explicitChunkMap(ShardSetModel model) {
    List<ChunkMapSpec> entries = new ArrayList<>(model.chunkMap());
    for (String space : hashedShardspaces(model)) {
      if (model.chunkMap(space).isEmpty()) {
        List<String> shards = shardNames(model, space);
        for (ChunkMap.Entry e : ChunkMap.defaultPlacement(model.chunksFor(space), shards.size())
            .entries()) {
          entries.add(new ChunkMapSpec(e.from(), e.to(), shards.get(e.shard())));
        }
      }
    }
    return entries;
  }

  private static ReshardPlan addShard(ShardSetModel model, Operation.AddShard add) {
    String space = add.shardspace() == null ? ShardSpec.DEFAULT_SHARDSPACE : add.shardspace();
    if (model.shards().stream().anyMatch(s -> s.name().equals(add.name()))) {
      throw new IllegalArgumentException("shard '" + add.name() + "' exists already");
    }
    List<String> shards = new ArrayList<>(shardsOf(model, space, "add-shard adds a shard to"));
    Map<String, Object> shard = shardObject(add, space);
    shards.add(add.name());
    List<ChunkMapSpec> before = explicitChunkMap(model);
    ChunkMap map = chunkMap(before, shards);
    // A shardspace without hashed tables places no rows by hash: nothing moves.
    List<ChunkMoves.Move> moves =
        map == null ? List.of() : ChunkMoves.addShard(map, shards.size() - 1);
    return plan(model, space, add, shards, before, moves, shard, null);
  }

  private static Map<String, Object> shardObject(Operation.AddShard add, String space) {
    Object name = add.shard().get("name");
    if (name != null && !name.equals(add.name())) {
      throw new IllegalArgumentException("the new shard is named '" + add.name()
          + "', but its model object names '" + name + "'");
    }
    Object ownSpace = add.shard().get("shardspace");
    if (ownSpace != null && !ownSpace.equals(space)) {
      throw new IllegalArgumentException("shard '" + add.name() + "' joins shardspace '" + space
          + "', but its model object names shardspace '" + ownSpace + "'");
    }
    Map<String, Object> shard = new LinkedHashMap<>();
    shard.put("name", add.name());
    shard.putAll(add.shard());
    if (ownSpace == null && !space.equals(ShardSpec.DEFAULT_SHARDSPACE)) {
      shard.put("shardspace", space);
    }
    return shard;
  }

  private static ReshardPlan removeShard(ShardSetModel model, Operation.RemoveShard remove) {
    String leaving = remove.name();
    String space = model.shard(leaving).shardspace();
    List<String> shards = shardsOf(model, space, "");
    if (shards.size() == 1) {
      throw new IllegalArgumentException("shard '" + leaving + "' is the only shard of"
          + " shardspace '" + space + "'; it cannot leave");
    }
    for (TableSpec table : model.tables()) {
      checkCanLeave(table, leaving);
    }
    List<ChunkMapSpec> before = explicitChunkMap(model);
    ChunkMap map = chunkMap(before, shards);
    int index = shards.indexOf(leaving);
    List<ChunkMoves.Move> moves =
        map != null && map.entries().stream().anyMatch(e -> e.shard() == index)
            ? ChunkMoves.removeShard(map, index) : List.of();
    return plan(model, space, remove, shards, before, moves, null, leaving);
  }

  /** Fails if a table places rows on the leaving shard in a way the tool cannot change. */
  private static void checkCanLeave(TableSpec table, String leaving) {
    if (!table.shards().contains(leaving)) {
      return;
    }
    String name = table.method().modelName() + " table '" + table.name() + "'";
    for (RangeSpec range : table.ranges()) {
      if (range.shard().equals(leaving)) {
        throw new IllegalArgumentException(name + " places its range " + describe(range)
            + " on shard '" + leaving + "'; give the range to another shard before removing"
            + " it");
      }
    }
    for (ListSpec list : table.lists()) {
      if (list.shard().equals(leaving)) {
        throw new IllegalArgumentException(name + " places " + (list.isDefault()
            ? "its default list" : "the values " + list.values()) + " on shard '" + leaving
            + "'; give them to another shard before removing it");
      }
    }
    if (table.method() == ShardingMethod.LOOKUP) {
      throw new IllegalArgumentException(name + " may place rows on shard '" + leaving
          + "' through its directory; move them and list the table's shards without '"
          + leaving + "' before removing it");
    }
    if (table.shards().size() == 1) {
      throw new IllegalArgumentException(name + " lives on shard '" + leaving + "' only;"
          + " give it another shard before removing this one");
    }
  }

  private static String describe(RangeSpec range) {
    if (range.from() == null) {
      return range.to() == null ? "of all keys" : "below " + range.to();
    }
    return range.to() == null ? "from " + range.from() + " up"
        : "[" + range.from() + ", " + range.to() + ")";
  }

  private static ReshardPlan moveRange(ShardSetModel model, Operation.MoveRange move) {
    String space = model.shard(move.target()).shardspace();
    List<String> shards = shardsOf(model, space, "");
    List<ChunkMapSpec> before = explicitChunkMap(model);
    ChunkMapSpec entry = entryAt(before, model, space, move.from());
    if (entry.shard().equals(move.target())) {
      throw new IllegalArgumentException("hash range [" + entry.from() + ", " + entry.to()
          + ") is on shard '" + move.target() + "' already");
    }
    ChunkMoves.Move moved = ChunkMoves.moveRange(chunkMap(before, shards), move.from(),
        shards.indexOf(move.target()));
    return plan(model, space, move, shards, before, List.of(moved), null, null);
  }

  private static ReshardPlan splitRange(ShardSetModel model, Operation.SplitRange split) {
    String space = split.shardspace() != null ? split.shardspace() : onlyHashedSpace(model);
    List<String> shards = shardsOf(model, space, "");
    List<ChunkMapSpec> before = explicitChunkMap(model);
    ChunkMapSpec entry = entryAt(before, model, space, split.from());
    if (entry.to() - entry.from() < 2) {
      throw new IllegalArgumentException("hash range [" + entry.from() + ", " + entry.to()
          + ") holds one hash; it cannot split");
    }
    long at = split.at() != null ? split.at() : entry.from() + (entry.to() - entry.from()) / 2;
    ChunkMoves.splitRange(chunkMap(before, shards), split.from(), at); // checks at
    List<ChunkMapSpec> after = new ArrayList<>();
    for (ChunkMapSpec e : before) {
      if (e.equals(entry)) {
        after.add(new ChunkMapSpec(e.from(), at, e.shard()));
        after.add(new ChunkMapSpec(at, e.to(), e.shard()));
      } else {
        after.add(e);
      }
    }
    return new ReshardPlan(model.schema(), space, split.describe(), List.of(), before, after,
        null, null);
  }

  private static ReshardPlan plan(ShardSetModel model, String space, Operation operation,
      List<String> shards, List<ChunkMapSpec> before, List<ChunkMoves.Move> moves,
      Map<String, Object> addedShard, String leaving) {
    List<ReshardSpec.MoveSpec> specs = moves.stream()
        .map(m -> new ReshardSpec.MoveSpec(m.from(), m.to(), shards.get(m.source()),
            shards.get(m.target())))
        .toList();
    List<ChunkMapSpec> after = new ArrayList<>();
    for (ChunkMapSpec entry : before) {
      ReshardSpec.MoveSpec move = specs.stream()
          .filter(m -> m.from() == entry.from() && m.source().equals(entry.shard()))
          .findFirst().orElse(null);
      after.add(move == null ? entry : new ChunkMapSpec(entry.from(), entry.to(), move.target()));
    }
    return new ReshardPlan(model.schema(), space, operation.describe(), specs, before, after,
        addedShard, leaving);
  }

  /** The entry of a shardspace's map that starts at a hash. */
  private static ChunkMapSpec entryAt(List<ChunkMapSpec> entries, ShardSetModel model,
      String space, long from) {
    return entries.stream()
        .filter(e -> e.from() == from && model.shard(e.shard()).shardspace().equals(space))
        .findFirst().orElseThrow(() -> new IllegalArgumentException("no hash range of"
            + " shardspace '" + space + "' starts at " + from));
  }

  /**
   * A shardspace's map, numbering its shards by their position in {@code shards}; null when
   * the chunk map has no entries for it.
   */
  private static ChunkMap chunkMap(List<ChunkMapSpec> entries, List<String> shards) {
    List<ChunkMap.Entry> spaceEntries = entries.stream().filter(e -> shards.contains(e.shard()))
        .map(e -> new ChunkMap.Entry(e.from(), e.to(), shards.indexOf(e.shard())))
        .toList();
    return spaceEntries.isEmpty() ? null : ChunkMap.of(spaceEntries);
  }

  private static List<String> shardsOf(ShardSetModel model, String space, String purpose) {
    List<String> shards = shardNames(model, space);
    if (shards.isEmpty()) {
      throw new IllegalArgumentException("shardspace '" + space + "' has no shards"
          + (purpose.isEmpty() ? "" : "; " + purpose + " an existing shardspace"));
    }
    return shards;
  }

  private static List<String> shardNames(ShardSetModel model, String space) {
    return model.shardspace(space).stream().map(ShardSpec::name).toList();
  }

  private static String onlyHashedSpace(ShardSetModel model) {
    Set<String> spaces = hashedShardspaces(model);
    if (spaces.size() > 1) {
      throw new IllegalArgumentException("shardspaces " + String.join(", ", spaces)
          + " all hash rows; name the shardspace of the range to split");
    }
    return spaces.isEmpty() ? ShardSpec.DEFAULT_SHARDSPACE : spaces.iterator().next();
  }

  /** The shardspaces whose chunk maps place rows of consistent-hash or composite tables. */
  private static Set<String> hashedShardspaces(ShardSetModel model) {
    Set<String> spaces = new LinkedHashSet<>();
    model.tables().forEach(table -> spaces.addAll(table.hashedShardspaces()));
    return spaces;
  }
}
