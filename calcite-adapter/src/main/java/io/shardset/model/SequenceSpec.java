package io.shardset.model;

import java.util.Objects;

/**
 * A global sequence of a schema: numbers unique across every process and shard, handed to
 * each process in blocks (Vitess's way), so that a process takes a block from the sequence's
 * store once per {@code blockSize} values; increasing within a process, not across them.
 *
 * @param name the sequence's name, as {@code NEXT VALUE FOR name} and column defaults say it
 * @param start the first value handed out
 * @param blockSize how many values a process takes at once
 */
public record SequenceSpec(String name, long start, int blockSize) {
  /** A thousand values per block when the model says nothing. */
  public static final int DEFAULT_BLOCK_SIZE = 1000;

  public SequenceSpec {
    Objects.requireNonNull(name, "name");
    if (blockSize < 1) {
      throw new IllegalArgumentException("blockSize must be positive, got " + blockSize);
    }
  }
}
