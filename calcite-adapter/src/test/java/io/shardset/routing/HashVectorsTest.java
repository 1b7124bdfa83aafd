package io.shardset.routing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Pins the hash function of the routing contract: the specification's worked values, and more
 * keys whose bytes are built here by hand and whose hashes were computed by an independent CRC-32
 * implementation.
 */
class HashVectorsTest {
  private static final int SPEC_CHUNKS = 480;
  private static final int[] CHUNK_COUNTS = {1, 7, 120, 480, 4096, Integer.MAX_VALUE};
  private static final List<KeyType> NUMBER = List.of(KeyType.NUMBER);

  @Test void specificationWorkedValues() {
    assertSpec(NUMBER, List.of(1L), 304476159L, 34);
    assertSpec(NUMBER, List.of(42), 3197703871L, 357);
    assertSpec(List.of(KeyType.STRING), List.of("cust-1"), 1427515075L, 159);
    assertSpec(List.of(KeyType.DATE), List.of(LocalDate.of(2020, 1, 1)), 1477636714L, 165);
    assertSpec(List.of(KeyType.NUMBER, KeyType.STRING), List.of(1L, "EU"), 2607727147L, 291);
  }

  @Test void equalNumbersHashAlike() {
    long hash = hashOf(NUMBER, List.of(42L));
    assertEquals(3197703871L, hash);
    assertEquals(hash, hashOf(NUMBER, List.of(42)));
    assertEquals(hash, hashOf(NUMBER, List.of(new BigDecimal("42.0"))));
    assertEquals(hash, hashOf(NUMBER, List.of((short) 42)));
    assertEquals(hash, hashOf(NUMBER, List.of(BigInteger.valueOf(42))));
  }

  /** A key, its canonical bytes spelled out by hand, and the CRC-32 and chunk (of 480) of them. */
  record Vector(String name, List<KeyType> types, List<Object> values, byte[] bytes,
      long hash, int chunk) {
    @Override public String toString() {
      return name;
    }
  }

  static Stream<Vector> vectors() {
    return Stream.of(
        one("negative integer", KeyType.NUMBER, -1, longBytes(-1L), 558161692L, 62),
        one("Long.MAX_VALUE", KeyType.NUMBER, Long.MAX_VALUE, longBytes(Long.MAX_VALUE),
            1920948934L, 214),
        one("Long.MIN_VALUE as BigInteger", KeyType.NUMBER,
            BigInteger.valueOf(Long.MIN_VALUE), longBytes(Long.MIN_VALUE), 907631283L, 101),
        one("decimal 12.50", KeyType.NUMBER, new BigDecimal("12.50"), utf8("12.5"),
            327728169L, 36),
        one("negative fraction as Double", KeyType.NUMBER, -0.5d, utf8("-0.5"), 180584544L, 20),
        one("decimal 1E+2", KeyType.NUMBER, new BigDecimal("1E+2"), longBytes(100L),
            805141032L, 89),
        one("integer beyond long", KeyType.NUMBER, BigInteger.TWO.pow(64),
            utf8("18446744073709551616"), 653721760L, 73),
        one("Double 0.1", KeyType.NUMBER, 0.1d, utf8("0.1"), 2180199828L, 243),
        one("empty string", KeyType.STRING, "", new byte[0], 0L, 0),
        one("non-ASCII string", KeyType.STRING, "Zürich 東京",
            bytes(0x5a, 0xc3, 0xbc, 0x72, 0x69, 0x63, 0x68, 0x20, 0xe6, 0x9d, 0xb1, 0xe4, 0xba,
                0xac),
            4098604257L, 458),
        one("CHAR with trailing spaces", KeyType.CHAR, "EU   ", utf8("EU"), 3621129412L, 404),
        one("date the day before 1970", KeyType.DATE, LocalDate.of(1969, 12, 31),
            longBytes(-1L), 558161692L, 62),
        one("date 1900-01-01", KeyType.DATE, "1900-01-01", longBytes(-25567L), 251599019L, 28),
        one("timestamp with millis", KeyType.TIMESTAMP, "2020-01-01 10:00:00.123",
            longBytes(1_577_872_800_123L), 2940656825L, 328),
        one("timestamp before 1970", KeyType.TIMESTAMP,
            LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000), longBytes(-1L),
            558161692L, 62),
        one("true", KeyType.BOOLEAN, true, bytes(1), 2768625435L, 309),
        one("false", KeyType.BOOLEAN, "false", bytes(0), 3523407757L, 393),
        one("NULL", KeyType.NUMBER, null, new byte[0], 0L, 0),
        new Vector("three columns", List.of(KeyType.NUMBER, KeyType.STRING, KeyType.DATE),
            List.of(7, "a", "2020-01-01"),
            concat(length(8), longBytes(7L), length(1), utf8("a"), length(8), longBytes(18262L)),
            2010222408L, 224),
        new Vector("NULL second column", List.of(KeyType.NUMBER, KeyType.STRING),
            Arrays.asList(1L, null), concat(length(8), longBytes(1L), length(0)),
            2346234248L, 262),
        new Vector("NULL first column", List.of(KeyType.NUMBER, KeyType.CHAR),
            Arrays.asList(null, "EU "), concat(length(0), length(2), utf8("EU")),
            1979818531L, 221));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void vector(Vector vector) {
    assertEquals(vector.hash(), crc32(vector.bytes()), "CRC-32 of the hand-built bytes");
    assertArrayEquals(vector.bytes(), KeyHasher.keyBytes(vector.types(), vector.values()));
    assertEquals(vector.hash(),
        KeyHasher.hash(KeyHasher.keyBytes(vector.types(), vector.values())));
    assertEquals(vector.chunk(), plainChunk(vector.hash(), SPEC_CHUNKS));
    for (int chunks : CHUNK_COUNTS) {
      assertEquals(plainChunk(vector.hash(), chunks), ChunkMap.chunkOf(vector.hash(), chunks),
          chunks + " chunks");
    }
    HashRouter router =
        new HashRouter(vector.types(), ChunkMap.defaultPlacement(SPEC_CHUNKS, 7), 7);
    assertEquals(vector.chunk() % 7, router.shardOf(vector.values()).getAsInt());
  }

  private static void assertSpec(List<KeyType> types, List<?> values, long hash, int chunk) {
    assertEquals(hash, hashOf(types, values));
    assertEquals(chunk, ChunkMap.chunkOf(hash, SPEC_CHUNKS));
    assertEquals(chunk, plainChunk(hash, SPEC_CHUNKS));
  }

  private static long hashOf(List<KeyType> types, List<?> values) {
    return KeyHasher.hash(KeyHasher.keyBytes(types, values));
  }

  private static Vector one(String name, KeyType type, Object value, byte[] bytes, long hash,
      int chunk) {
    return new Vector(name, List.of(type), Arrays.asList(value), bytes, hash, chunk);
  }

  private static long crc32(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }

  /** floor(hash * chunks / 2^32) in arbitrary precision. */
  private static int plainChunk(long hash, int chunks) {
    return BigInteger.valueOf(hash).multiply(BigInteger.valueOf(chunks))
        .divide(BigInteger.TWO.pow(32)).intValueExact();
  }

  private static byte[] longBytes(long value) {
    return ByteBuffer.allocate(8).putLong(value).array();
  }

  private static byte[] length(int length) {
    return ByteBuffer.allocate(4).putInt(length).array();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(UTF_8);
  }

  private static byte[] bytes(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return bytes;
  }

  private static byte[] concat(byte[]... parts) {
    ByteBuffer buffer = ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
    for (byte[] part : parts) {
      buffer.put(part);
    }
    return buffer.array();
  }
}
