package io.shardset.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the {@code reshard} object of a model operand, which the resharding tool writes while a
 * move is in progress, and checks it against the shards and the chunk map.
 */
final class ReshardParser {
  private static final List<String> KEYS =
      List.of("shardspace", "phase", "moves", "operation", "leaving");
  private static final List<String> MOVE_KEYS = List.of("from", "to", "source", "target");

  private ReshardParser() {
  }

  /** The move in progress; null if the operand records none. */
  static ReshardSpec parse(OperandNode operand, List<ShardSpec> shards,
      List<ChunkMapSpec> chunkMap) {
    OperandNode node = operand.object("reshard");
    if (node == null) {
      return null;
    }
    node.checkKeys(KEYS, Set.of());
    String space = node.requiredName("shardspace");
    List<String> spaceShards = shards.stream().filter(s -> s.shardspace().equals(space))
        .map(ShardSpec::name).toList();
    if (spaceShards.isEmpty()) {
      throw node.error("shardspace", "unknown shardspace '" + space + "'");
    }
    ReshardSpec.Phase phase = phase(node);
    List<OperandNode> entries = node.entries("moves");
    if (entries == null) {
      throw node.error("moves", "a value is required");
    }
    List<ReshardSpec.MoveSpec> moves = new ArrayList<>();
    Set<String> sources = new HashSet<>();
    Set<String> targets = new HashSet<>();
    for (OperandNode entry : entries) {
      ReshardSpec.MoveSpec move = move(entry, spaceShards);
      ChunkMapSpec owner = new ChunkMapSpec(move.from(), move.to(),
          phase == ReshardSpec.Phase.COPY ? move.source() : move.target());
      if (!chunkMap.contains(owner)) {
        throw entry.error(null, "the chunk map has no entry [" + move.from() + ", " + move.to()
            + ") on '" + owner.shard() + "', which phase '" + phase.modelName() + "' needs");
      }
      moves.add(move);
      sources.add(move.source());
      targets.add(move.target());
    }
    sources.retainAll(targets);
    if (!sources.isEmpty()) {
      throw node.error("moves", "shard '" + sources.iterator().next()
          + "' is both a source and a target");
    }
    String leaving = node.name("leaving");
    if (leaving != null && !spaceShards.contains(leaving)) {
      throw node.error("leaving", "unknown shard '" + leaving + "' in shardspace '" + space
          + "'");
    }
    return new ReshardSpec(space, phase, moves, node.name("operation", "reshard"), leaving);
  }

  private static ReshardSpec.Phase phase(OperandNode node) {
    String name = node.requiredName("phase");
    return Arrays.stream(ReshardSpec.Phase.values()).filter(p -> p.modelName().equals(name))
        .findFirst().orElseThrow(() -> node.error("phase", "unknown phase '" + name
            + "'; phases are copy, switched"));
  }

  private static ReshardSpec.MoveSpec move(OperandNode entry, List<String> spaceShards) {
    entry.checkKeys(MOVE_KEYS, Set.of());
    long from = ChunkMapParser.bound(entry, "from");
    long to = ChunkMapParser.bound(entry, "to");
    if (from >= to) {
      throw entry.error(null, "'from' (" + from + ") must be less than 'to' (" + to + ")");
    }
    String source = shard(entry, "source", spaceShards);
    String target = shard(entry, "target", spaceShards);
    if (source.equals(target)) {
      throw entry.error(null, "source and target are both '" + source + "'");
    }
    return new ReshardSpec.MoveSpec(from, to, source, target);
  }

  private static String shard(OperandNode node, String key, List<String> spaceShards) {
    String name = node.requiredName(key);
    if (!spaceShards.contains(name)) {
      throw node.error(key, "unknown shard '" + name + "' in the shardspace");
    }
    return name;
  }
}
