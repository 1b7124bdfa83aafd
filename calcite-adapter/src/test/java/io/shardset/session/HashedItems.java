package io.shardset.session;

import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;

/**
 * The table ITEMS of the session tests, hashed on ID over four shards and 60 chunks, and
 * where its keys live.
 */
final class HashedItems {
  static final int SHARDS = 4;
  private static final int CHUNKS = 60;

  private HashedItems() {
  }

  /** The model of the fixture's shards holding ITEMS, with extra shard and transaction
   * entries (see {@link ShardFixture#model(String, String, String)}). */
  static String model(ShardFixture fixture, String shardEntries, String transactionEntries) {
    return fixture.model("\"chunks\": " + CHUNKS + ", \"tables\": [\n"
        + "  {\"name\": \"ITEMS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]",
        shardEntries, transactionEntries);
  }

  /** The shard index of a key's row. */
  static int shardOf(long id) {
    return ExpectedPlacement.shardOfLong(id, CHUNKS, SHARDS);
  }

  /** The first key from {@code from} whose row lives on another shard than {@code id}'s. */
  static long onOtherShard(long id, long from) {
    long other = from;
    while (shardOf(other) == shardOf(id)) {
      other++;
    }
    return other;
  }
}
