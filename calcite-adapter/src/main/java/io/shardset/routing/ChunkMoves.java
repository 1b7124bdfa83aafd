package io.shardset.routing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Plans changes of a {@link ChunkMap} that move whole hash ranges, never rehash: a new shard
 * takes an equal share of the hash space from the others, a shard that leaves hands its ranges
 * to the others, one range moves, or one range splits in two. Planning only; moving the rows is
 * the resharding tool's job.
 *
 * <p>Shares are measured in hash-space width, which is what the rows follow (each hash is
 * equally likely), so a map whose ranges were split stays balanced. Every plan is deterministic:
 * the same map gives the same moves.
 */
public final class ChunkMoves {
  /** The hashes [from, to) move from shard {@code source} to shard {@code target}. */
  public record Move(long from, long to, int source, int target) {
    public Move {
      if (from < 0 || to > ChunkMap.HASH_SPACE || from >= to) {
        throw new IllegalArgumentException("[" + from + ", " + to + ") is not a hash range");
      }
      if (source == target) {
        throw new IllegalArgumentException("a move needs two shards, got " + source + " twice");
      }
    }

    /** The share of the hash space that moves. */
    public double fraction() {
      return (double) (to - from) / ChunkMap.HASH_SPACE;
    }
  }

  private ChunkMoves() {
  }

  /**
   * The moves that give {@code newShard} (not yet in the map) its equal share,
   * {@code 1 / (shards + 1)} of the hash space: the widest shard gives its last range, again and
   * again, while that brings the new shard closer to its share.
   */
  public static List<Move> addShard(ChunkMap map, int newShard) {
    Map<Integer, List<ChunkMap.Entry>> byShard = byShard(map);
    if (byShard.containsKey(newShard)) {
      throw new IllegalArgumentException("shard " + newShard + " already holds hash ranges");
    }
    long share = ChunkMap.HASH_SPACE / (byShard.size() + 1);
    List<Move> moves = new ArrayList<>();
    long taken = 0;
    while (true) {
      int donor = widest(byShard);
      List<ChunkMap.Entry> ranges = byShard.get(donor);
      if (ranges.size() < 2) {
        break; // a shard keeps at least one range
      }
      ChunkMap.Entry last = ranges.get(ranges.size() - 1);
      long width = last.to() - last.from();
      // Take it only if the new shard ends up nearer its share than without it.
      if (Math.abs(share - (taken + width)) >= Math.abs(share - taken)) {
        break;
      }
      ranges.remove(ranges.size() - 1);
      moves.add(new Move(last.from(), last.to(), donor, newShard));
      taken += width;
    }
    moves.sort(Comparator.comparingLong(Move::from));
    return List.copyOf(moves);
  }

  /**
   * The moves that empty {@code leaving}: each of its ranges, in hash order, goes to the shard
   * that holds the least of the hash space at that point.
   */
  public static List<Move> removeShard(ChunkMap map, int leaving) {
    Map<Integer, List<ChunkMap.Entry>> byShard = byShard(map);
    List<ChunkMap.Entry> ranges = byShard.remove(leaving);
    if (ranges == null) {
      throw new IllegalArgumentException("shard " + leaving + " holds no hash range");
    }
    if (byShard.isEmpty()) {
      throw new IllegalArgumentException("shard " + leaving + " is the only shard");
    }
    Comparator<Map.Entry<Integer, Long>> leastLoaded =
        Map.Entry.<Integer, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey());
    Map<Integer, Long> widths = new TreeMap<>();
    byShard.forEach((shard, entries) -> widths.put(shard, width(entries)));
    List<Move> moves = new ArrayList<>();
    for (ChunkMap.Entry entry : ranges) {
      int target = widths.entrySet().stream().min(leastLoaded).orElseThrow().getKey();
      moves.add(new Move(entry.from(), entry.to(), leaving, target));
      widths.merge(target, entry.to() - entry.from(), Long::sum);
    }
    return List.copyOf(moves);
  }

  /** The move of the range that starts at {@code from} to shard {@code target}. */
  public static Move moveRange(ChunkMap map, long from, int target) {
    ChunkMap.Entry entry = entryAt(map, from);
    return new Move(entry.from(), entry.to(), entry.shard(), target);
  }

  /**
   * The map with the range that starts at {@code from} split at {@code at} into two ranges on
   * the same shard: no hash changes shard, so no row moves.
   */
  public static ChunkMap splitRange(ChunkMap map, long from, long at) {
    ChunkMap.Entry entry = entryAt(map, from);
    if (at <= entry.from() || at >= entry.to()) {
      throw new IllegalArgumentException("cannot split [" + entry.from() + ", " + entry.to()
          + ") at " + at + ": the point must lie strictly inside the range");
    }
    List<ChunkMap.Entry> entries = new ArrayList<>(map.entries());
    entries.remove(entry);
    entries.add(new ChunkMap.Entry(entry.from(), at, entry.shard()));
    entries.add(new ChunkMap.Entry(at, entry.to(), entry.shard()));
    return ChunkMap.of(entries);
  }

  /**
   * The map after the moves. Each move must name a whole range of the map and the shard that
   * holds it.
   */
  public static ChunkMap apply(ChunkMap map, List<Move> moves) {
    List<ChunkMap.Entry> entries = new ArrayList<>(map.entries());
    for (Move move : moves) {
      ChunkMap.Entry entry = entryAt(map, move.from());
      if (entry.to() != move.to() || entry.shard() != move.source()) {
        throw new IllegalArgumentException("the map holds " + entry + ", not [" + move.from()
            + ", " + move.to() + ") on shard " + move.source());
      }
      entries.set(entries.indexOf(entry),
          new ChunkMap.Entry(entry.from(), entry.to(), move.target()));
    }
    return ChunkMap.of(entries);
  }

  /** The share of the hash space the moves move. */
  public static double fraction(List<Move> moves) {
    return moves.stream().mapToDouble(Move::fraction).sum();
  }

  private static ChunkMap.Entry entryAt(ChunkMap map, long from) {
    return map.entries().stream().filter(e -> e.from() == from).findFirst().orElseThrow(
        () -> new IllegalArgumentException("no hash range starts at " + from));
  }

  private static Map<Integer, List<ChunkMap.Entry>> byShard(ChunkMap map) {
    Map<Integer, List<ChunkMap.Entry>> byShard = new TreeMap<>();
    for (ChunkMap.Entry entry : Objects.requireNonNull(map, "map").entries()) {
      byShard.computeIfAbsent(entry.shard(), s -> new ArrayList<>()).add(entry);
    }
    return byShard;
  }

  /** The shard holding the most of the hash space; the lowest such index on a tie. */
  private static int widest(Map<Integer, List<ChunkMap.Entry>> byShard) {
    int widest = -1;
    long most = -1;
    for (Map.Entry<Integer, List<ChunkMap.Entry>> e : byShard.entrySet()) {
      long width = width(e.getValue());
      if (width > most) {
        most = width;
        widest = e.getKey();
      }
    }
    return widest;
  }

  private static long width(List<ChunkMap.Entry> entries) {
    return entries.stream().mapToLong(e -> e.to() - e.from()).sum();
  }
}
