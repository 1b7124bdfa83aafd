package io.shardset.model;

import io.shardset.routing.ChunkMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code chunkMap} of a model operand and checks that, in every shardspace it places,
 * its entries cover the hash space {@code [0, 2^32)} exactly once.
 */
final class ChunkMapParser {
  private static final List<String> KEYS = List.of("from", "to", "shard");

  private ChunkMapParser() {
  }

  /** One entry with its position in the model, for messages. */
  private record Entry(int number, ChunkMapSpec spec) {
    @Override public String toString() {
      return "entry " + number + " [" + spec.from() + ", " + spec.to() + ") on '"
          + spec.shard() + "'";
    }
  }

  /** The entries in model order; empty if the operand has no chunk map. */
  static List<ChunkMapSpec> parse(OperandNode operand, List<ShardSpec> shards) {
    List<OperandNode> nodes = operand.entries("chunkMap");
    if (nodes == null) {
      return List.of();
    }
    if (nodes.size() > ChunkMap.MAX_CHUNKS) {
      throw operand.error("chunkMap", nodes.size() + " entries, more than the "
          + ChunkMap.MAX_CHUNKS + " a chunk map may have");
    }
    Map<String, List<Entry>> byShardspace = new LinkedHashMap<>();
    List<ChunkMapSpec> specs = new ArrayList<>();
    for (OperandNode node : nodes) {
      node.checkKeys(KEYS, Set.of());
      long from = bound(node, "from");
      long to = bound(node, "to");
      String shard = node.requiredName("shard");
      ShardSpec shardSpec = shards.stream().filter(s -> s.name().equals(shard)).findFirst()
          .orElseThrow(() -> node.error("shard", "unknown shard '" + shard + "'"));
      if (from >= to) {
        throw node.error(null, "'from' (" + from + ") must be less than 'to' (" + to + ")");
      }
      ChunkMapSpec spec = new ChunkMapSpec(from, to, shard);
      specs.add(spec);
      byShardspace.computeIfAbsent(shardSpec.shardspace(), k -> new ArrayList<>())
          .add(new Entry(node.location().entry(), spec));
    }
    byShardspace.forEach((space, entries) -> checkCoverage(operand, space, entries));
    return specs;
  }

  /** A hash bound: an integer from 0 to 2^32 that must be present. */
  static long bound(OperandNode node, String key) {
    Long value = node.integer(key, 0, ChunkMapSpec.HASH_SPACE);
    if (value == null) {
      throw node.error(key, "a value is required");
    }
    return value;
  }

  private static void checkCoverage(OperandNode operand, String space, List<Entry> entries) {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong((Entry e) -> e.spec().from())
        .thenComparingLong(e -> e.spec().to()));
    String prefix = "shardspace '" + space + "': ";
    Entry first = sorted.get(0);
    if (first.spec().from() != 0) {
      throw operand.error("chunkMap", prefix + "no entry covers [0, " + first.spec().from()
          + "); the lowest is " + first);
    }
    for (int i = 1; i < sorted.size(); i++) {
      Entry previous = sorted.get(i - 1);
      Entry next = sorted.get(i);
      if (next.spec().from() < previous.spec().to()) {
        throw operand.error("chunkMap", prefix + previous + " and " + next + " overlap");
      }
      if (next.spec().from() > previous.spec().to()) {
        throw operand.error("chunkMap", prefix + "no entry covers [" + previous.spec().to()
            + ", " + next.spec().from() + "), between " + previous + " and " + next);
      }
    }
    Entry last = sorted.get(sorted.size() - 1);
    if (last.spec().to() != ChunkMapSpec.HASH_SPACE) {
      throw operand.error("chunkMap", prefix + "no entry covers [" + last.spec().to() + ", "
          + ChunkMapSpec.HASH_SPACE + "); the highest is " + last);
    }
  }
}
