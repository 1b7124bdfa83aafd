package io.shardset.routing;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;

/** CRC-32 hashing of canonical key bytes, as the routing contract defines it. */
public final class KeyHasher {
  private KeyHasher() {
  }

  /** CRC-32 (IEEE) of the bytes as an unsigned 32-bit number, in [0, 2^32). */
  public static long hash(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }

  /**
   * The canonical bytes of a key. A key of one column is that column's canonical bytes; a key of
   * several columns is, per column in key order, the 4-byte big-endian length of that column's
   * canonical bytes followed by those bytes. Values are normalized with their column's type
   * first, and may be null.
   */
  public static byte[] keyBytes(List<KeyType> types, List<?> normalizedValues) {
    Objects.requireNonNull(types, "types");
    Objects.requireNonNull(normalizedValues, "normalizedValues");
    if (types.isEmpty()) {
      throw new IllegalArgumentException("a key needs at least one column");
    }
    ShardSets.checkKeyArity(types.size(), normalizedValues.size(), "key value");
    if (types.size() == 1) {
      return columnBytes(types.get(0), normalizedValues.get(0));
    }
    byte[][] columns = new byte[types.size()][];
    int length = 0;
    for (int i = 0; i < columns.length; i++) {
      columns[i] = columnBytes(types.get(i), normalizedValues.get(i));
      length += Integer.BYTES + columns[i].length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(length);
    for (byte[] column : columns) {
      buffer.putInt(column.length).put(column);
    }
    return buffer.array();
  }

  private static byte[] columnBytes(KeyType type, Object value) {
    return type.canonicalBytes(type.normalize(value));
  }
}
