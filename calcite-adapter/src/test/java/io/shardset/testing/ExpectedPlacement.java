package io.shardset.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Where the spec says a consistent-hash key lives, computed here independently of the
 * routing code: hand-built canonical bytes, {@link CRC32}, chunk arithmetic, and the default
 * placement of chunk {@code c} on shard {@code c mod N}.
 */
public final class ExpectedPlacement {
  private ExpectedPlacement() {
  }

  /** The shard of a single BIGINT key. */
  public static int shardOfLong(long key, int chunks, int shards) {
    return shardOfBytes(ByteBuffer.allocate(8).putLong(key).array(), chunks, shards);
  }

  /** The shard of a (BIGINT, VARCHAR) key. */
  public static int shardOfLongString(long a, String b, int chunks, int shards) {
    final byte[] s = b.getBytes(StandardCharsets.UTF_8);
    final ByteBuffer buffer = ByteBuffer.allocate(4 + 8 + 4 + s.length);
    buffer.putInt(8).putLong(a).putInt(s.length).put(s);
    return shardOfBytes(buffer.array(), chunks, shards);
  }

  private static int shardOfBytes(byte[] bytes, int chunks, int shards) {
    final CRC32 crc = new CRC32();
    crc.update(bytes);
    final long hash = crc.getValue();
    final long chunk = hash * chunks / (1L << 32); // hash < 2^32, chunks < 2^31: no overflow
    return (int) (chunk % shards);
  }
}
