package io.shardset.reshard;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A change of a shardspace's shards or chunk map that {@link ReshardPlanner} plans. */
public sealed interface Operation {
  /** How the model's {@code reshard} object and reports name the operation. */
  String describe();

  /**
   * A new shard takes an equal share of its shardspace's hash space.
   *
   * @param name the new shard's name
   * @param shard the shard's model object as the user wrote it (jdbcUrl and the rest; its
   *     name, if present, must be {@code name}); placeholders such as {@code ${modelDir}} stay
   * @param shardspace the shardspace the shard joins; null for the default one
   */
  record AddShard(String name, Map<String, Object> shard, String shardspace)
      implements Operation {
    public AddShard {
      Objects.requireNonNull(name, "name");
      shard = new LinkedHashMap<>(shard);
    }

    @Override public String describe() {
      return "add-shard " + name;
    }
  }

  /** A shard hands its hash ranges to the other shards of its shardspace and leaves. */
  record RemoveShard(String name) implements Operation {
    public RemoveShard {
      Objects.requireNonNull(name, "name");
    }

    @Override public String describe() {
      return "remove-shard " + name;
    }
  }

  /** The hash range that starts at {@code from} moves to shard {@code target}. */
  record MoveRange(long from, String target) implements Operation {
    public MoveRange {
      Objects.requireNonNull(target, "target");
    }

    @Override public String describe() {
      return "move-chunk " + from + " " + target;
    }
  }

  /**
   * The hash range that starts at {@code from} becomes two ranges on the same shard; no row
   * moves.
   *
   * @param at where the second range starts; null for the middle of the range
   * @param shardspace the shardspace of the range; null for the only shardspace of
   *     consistent-hash or composite tables (else the default one)
   */
  record SplitRange(long from, Long at, String shardspace) implements Operation {
    /** Splits a range of the only hashed shardspace. */
    public SplitRange(long from, Long at) {
      this(from, at, null);
    }

    @Override public String describe() {
      return "split-chunk " + from + (at == null ? "" : " " + at);
    }
  }
}
