package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * A resharding in progress, as the model records it so that readers filter correctly and the
 * resharding tool can resume: the hash ranges of one shardspace that change shard, and how far
 * the move has got.
 *
 * <p>While it is recorded, the rows of the moving ranges sit in each shard's <em>move
 * tables</em> (see {@link MoveTables}), not in its tables: a shard that
 * {@linkplain #readsMoveTables(String) reads its move tables} returns their rows as its own, any
 * other shard ignores them. So every row is read exactly once in both phases.
 *
 * @param shardspace the shardspace whose chunk map changes
 * @param phase how far the move has got
 * @param moves the ranges that change shard; each is one entry of the model's chunk map,
 *     owned by its source before the switch and by its target after it
 * @param operation what the move does, for people reading the model ({@code add-shard s4})
 * @param leaving the shard that leaves the model when the move is done, or null
 */
public record ReshardSpec(String shardspace, Phase phase, List<MoveSpec> moves,
    String operation, String leaving) {
  /** How far a move has got. */
  public enum Phase {
    /**
     * Before the switch: the chunk map names the sources; sources move the moving rows from
     * their tables into their move tables and read both, targets receive copies in their move
     * tables and do not read them.
     */
    COPY("copy"),
    /**
     * After the switch: the chunk map names the targets, which read their move tables until
     * they merge them into their tables; sources no longer read theirs.
     */
    SWITCHED("switched");

    private final String modelName;

    Phase(String modelName) {
      this.modelName = modelName;
    }

    /** The phase as the model spells it. */
    public String modelName() {
      return modelName;
    }
  }

  /** The hashes [from, to) move from shard {@code source} to shard {@code target}. */
  public record MoveSpec(long from, long to, String source, String target) {
    public MoveSpec {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(target, "target");
      if (from < 0 || from >= to || to > ChunkMapSpec.HASH_SPACE) {
        throw new IllegalArgumentException("bad hash range [" + from + ", " + to + ")");
      }
    }

    /** Whether the range holds a hash. */
    public boolean contains(long hash) {
      return hash >= from && hash < to;
    }
  }

  public ReshardSpec {
    Objects.requireNonNull(shardspace, "shardspace");
    Objects.requireNonNull(phase, "phase");
    moves = List.copyOf(moves);
    Objects.requireNonNull(operation, "operation");
  }

  /** Whether a shard returns the rows of its move tables as its own in this phase. */
  public boolean readsMoveTables(String shard) {
    return moves.stream()
        .anyMatch(m -> (phase == Phase.COPY ? m.source() : m.target()).equals(shard));
  }

  /**
   * Whether the move carries rows of a table: a consistent-hash table of the shardspace, or a
   * composite table with a partition set in it (only that set's rows move).
   */
  public boolean carries(TableSpec table) {
    return table.hashedShardspaces().contains(shardspace);
  }

  /** Whether a shard is a source or a target of the move. */
  public boolean involves(String shard) {
    return moves.stream().anyMatch(m -> m.source().equals(shard) || m.target().equals(shard));
  }

  /** The move whose range holds a hash, or null when the hash does not move. */
  public MoveSpec moveOf(long hash) {
    for (MoveSpec move : moves) {
      if (move.contains(hash)) {
        return move;
      }
    }
    return null;
  }
}
