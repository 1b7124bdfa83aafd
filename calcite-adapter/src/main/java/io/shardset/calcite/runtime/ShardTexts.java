package io.shardset.calcite.runtime;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * Which SQL text each shard of a scan is sent: one text per group of shards that share a
 * dialect and physical tables.
 *
 * <p>The one form of a scan's SQL, for EXPLAIN ({@code sql=[...]}) and for execution.
 * Immutable.
 */
public final class ShardTexts {
  /**
   * One text and the shards it is for.
   *
   * @param shards the table's shards (by index) that receive this text
   * @param sql the statement, in those shards' dialect
   * @param parameters the query parameter index of each {@code ?} in the text, in order
   * @param lockable whether {@code FOR UPDATE} at its end locks every row it reads (see
   *     {@link LockableSql})
   */
  public record Text(BitSet shards, String sql, List<Integer> parameters, boolean lockable) {
    public Text {
      shards = (BitSet) Objects.requireNonNull(shards, "shards").clone();
      Objects.requireNonNull(sql, "sql");
      parameters = List.copyOf(parameters);
    }

    /** A text, whose lockability its SQL says. */
    public Text(BitSet shards, String sql, List<Integer> parameters) {
      this(shards, sql, parameters, LockableSql.isSimple(sql));
    }

    @Override public BitSet shards() {
      return (BitSet) shards.clone();
    }
  }

  private final List<Text> texts;
  private final int[] textOfShard;

  /**
   * Creates the texts of a table of {@code shardCount} shards; a shard no text is for can
   * never be a target (it lacks a joined table).
   */
  public ShardTexts(List<Text> texts, int shardCount) {
    this.texts = List.copyOf(texts);
    this.textOfShard = new int[shardCount];
    Arrays.fill(textOfShard, -1);
    for (int i = 0; i < this.texts.size(); i++) {
      final int text = i;
      this.texts.get(i).shards.stream().forEach(shard -> textOfShard[shard] = text);
    }
  }

  /** The distinct texts, each with its shards. */
  public List<Text> texts() {
    return texts;
  }

  /** The text a shard receives. */
  public Text of(int shard) {
    return texts.get(textOfShard[shard]);
  }

  /** Whether a shard has a text, so that it can answer for the table. */
  public boolean has(int shard) {
    return textOfShard[shard] >= 0;
  }

  /** The number of shards of the table. */
  int shardCount() {
    return textOfShard.length;
  }
}
