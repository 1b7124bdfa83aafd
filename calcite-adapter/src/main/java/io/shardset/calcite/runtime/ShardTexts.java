package io.shardset.calcite.runtime;

import java.util.List;

/**
 * The SQL texts of one shard scan and which shard gets which: one text per group of shards
 * that share dialect and physical tables.
 */
public final class ShardTexts {
  private final List<ShardQuery.Text> texts;
  private final int[] textOfShard;

  /**
   * Creates the texts.
   *
   * @param texts the distinct texts
   * @param textOfShard for each of the table's shards, the index of its text, or -1 when the
   *     shard can never be a target (it lacks a joined table)
   */
  public ShardTexts(List<ShardQuery.Text> texts, int[] textOfShard) {
    this.texts = List.copyOf(texts);
    this.textOfShard = textOfShard.clone();
  }

  /** The text a shard receives. */
  ShardQuery.Text of(int shard) {
    return texts.get(textOfShard[shard]);
  }

  /** Whether a shard has a text, so that it can answer for the table. */
  boolean has(int shard) {
    return textOfShard[shard] >= 0;
  }
}
