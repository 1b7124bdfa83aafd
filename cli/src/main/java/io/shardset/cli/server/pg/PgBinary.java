package io.shardset.cli.server.pg;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Values in PostgreSQL's binary format, by type OID: integers and floating point numbers in
 * network order, {@code numeric} in base-10000 digits, dates as days and timestamps and times
 * as microseconds from 2000-01-01, {@code uuid} as 16 bytes, {@code bytea} and the text types
 * as their bytes. Types without a binary form here are sent in text (see {@link #has}).
 */
final class PgBinary {
  static final int BOOL = 16;
  static final int BYTEA = 17;
  static final int INT8 = 20;
  static final int INT2 = 21;
  static final int INT4 = 23;
  static final int TEXT = 25;
  static final int FLOAT4 = 700;
  static final int FLOAT8 = 701;
  static final int BPCHAR = 1042;
  static final int VARCHAR = 1043;
  static final int DATE = 1082;
  static final int TIME = 1083;
  static final int TIMESTAMP = 1114;
  static final int TIMESTAMPTZ = 1184;
  static final int NUMERIC = 1700;
  static final int UUID_OID = 2950;

  /** PostgreSQL's epoch of dates and timestamps. */
  private static final LocalDate EPOCH = LocalDate.of(2000, 1, 1);
  private static final LocalDateTime EPOCH_TIME = EPOCH.atStartOfDay();
  private static final short NUMERIC_NEGATIVE = 0x4000;
  private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

  private PgBinary() {
  }

  /** Whether values of a type have a binary form here. */
  static boolean has(int oid) {
    switch (oid) {
    case BOOL: case BYTEA: case INT8: case INT2: case INT4: case TEXT: case FLOAT4:
    case FLOAT8: case BPCHAR: case VARCHAR: case DATE: case TIME: case TIMESTAMP:
    case TIMESTAMPTZ: case NUMERIC: case UUID_OID:
      return true;
    default:
      return false;
    }
  }

  /** A value, as {@code getObject} returns it, in the binary form of type {@code oid}. */
  static byte[] encode(Object value, int oid) {
    switch (oid) {
    case BOOL:
      return new byte[] {(byte) (((Boolean) value) ? 1 : 0)};
    case INT2:
      return ByteBuffer.allocate(2).putShort(((Number) value).shortValue()).array();
    case INT4:
      return ByteBuffer.allocate(4).putInt(((Number) value).intValue()).array();
    case INT8:
      return ByteBuffer.allocate(8).putLong(((Number) value).longValue()).array();
    case FLOAT4:
      return ByteBuffer.allocate(4).putFloat(((Number) value).floatValue()).array();
    case FLOAT8:
      return ByteBuffer.allocate(8).putDouble(((Number) value).doubleValue()).array();
    case NUMERIC:
      return numeric(value instanceof BigDecimal d ? d : new BigDecimal(value.toString()));
    case DATE:
      return ByteBuffer.allocate(4).putInt((int) ChronoUnit.DAYS.between(EPOCH,
          value instanceof java.sql.Date d ? d.toLocalDate() : (LocalDate) value)).array();
    case TIME:
      return ByteBuffer.allocate(8).putLong(time(value).toNanoOfDay() / 1000).array();
    case TIMESTAMP:
    case TIMESTAMPTZ:
      return ByteBuffer.allocate(8).putLong(ChronoUnit.MICROS.between(EPOCH_TIME,
          value instanceof java.sql.Timestamp t ? t.toLocalDateTime()
              : (LocalDateTime) value)).array();
    case UUID_OID:
      final UUID uuid = value instanceof UUID u ? u : UUID.fromString(value.toString());
      return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
          .putLong(uuid.getLeastSignificantBits()).array();
    case BYTEA:
      return (byte[]) value;
    default:
      final String text = PgText.of(value);
      return text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
    }
  }

  /** A value in the binary form of type {@code oid} as a Java value a statement takes. */
  static Object decode(byte[] bytes, int oid) {
    final ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      switch (oid) {
      case BOOL:
        return exactly(bytes, 1) && bytes[0] != 0;
      case INT2:
        return exactly(bytes, 2) ? in.getShort() : null;
      case INT4:
        return exactly(bytes, 4) ? in.getInt() : null;
      case INT8:
        return exactly(bytes, 8) ? in.getLong() : null;
      case FLOAT4:
        return exactly(bytes, 4) ? in.getFloat() : null;
      case FLOAT8:
        return exactly(bytes, 8) ? in.getDouble() : null;
      case NUMERIC:
        return numeric(in);
      case DATE:
        return exactly(bytes, 4) ? EPOCH.plusDays(in.getInt()) : null;
      case TIME:
        return exactly(bytes, 8) ? LocalTime.ofNanoOfDay(in.getLong() * 1000) : null;
      case TIMESTAMP:
        return exactly(bytes, 8) ? EPOCH_TIME.plus(in.getLong(), ChronoUnit.MICROS) : null;
      case TIMESTAMPTZ:
        return exactly(bytes, 8) ? OffsetDateTime.of(EPOCH_TIME.plus(in.getLong(),
            ChronoUnit.MICROS), ZoneOffset.UTC) : null;
      case UUID_OID:
        return exactly(bytes, 16) ? new UUID(in.getLong(), in.getLong()) : null;
      case BYTEA:
        return bytes;
      default:
        return new String(bytes, StandardCharsets.UTF_8);
      }
    } catch (RuntimeException e) {
      throw new PgProtocolException("22P03", "incorrect binary data format of a value of type"
          + " " + oid);
    }
  }

  private static boolean exactly(byte[] bytes, int length) {
    if (bytes.length != length) {
      throw new IllegalArgumentException("length " + bytes.length);
    }
    return true;
  }

  private static LocalTime time(Object value) {
    if (value instanceof java.sql.Time t) {
      return t.toLocalTime().withNano((int) Math.floorMod(t.getTime(), 1000L) * 1_000_000);
    }
    return (LocalTime) value;
  }

  /** A number as {@code numeric}'s digits of base 10000, weight, sign and display scale. */
  static byte[] numeric(BigDecimal value) {
    final int scale = Math.max(0, value.scale());
    // Digits of the fraction are grouped from the point: scale them up to whole groups.
    final int groupedScale = (scale + 3) / 4 * 4;
    BigInteger unscaled = value.setScale(groupedScale, RoundingMode.UNNECESSARY)
        .unscaledValue();
    final boolean negative = unscaled.signum() < 0;
    unscaled = unscaled.abs();
    final List<Short> groups = new ArrayList<>();
    while (unscaled.signum() > 0) {
      final BigInteger[] divided = unscaled.divideAndRemainder(TEN_THOUSAND);
      groups.add(0, divided[1].shortValue());
      unscaled = divided[0];
    }
    int weight = groups.size() - groupedScale / 4 - 1;
    while (!groups.isEmpty() && groups.get(groups.size() - 1) == 0) {
      groups.remove(groups.size() - 1);
    }
    while (!groups.isEmpty() && groups.get(0) == 0) {
      groups.remove(0);
      weight--;
    }
    if (groups.isEmpty()) {
      weight = 0;
    }
    final ByteBuffer out = ByteBuffer.allocate(8 + 2 * groups.size());
    out.putShort((short) groups.size()).putShort((short) weight)
        .putShort(negative ? NUMERIC_NEGATIVE : 0).putShort((short) scale);
    for (short group : groups) {
      out.putShort(group);
    }
    return out.array();
  }

  private static BigDecimal numeric(ByteBuffer in) {
    final int count = in.getShort();
    final int weight = in.getShort();
    final int sign = in.getShort() & 0xffff;
    final int scale = in.getShort();
    if (sign != 0 && sign != NUMERIC_NEGATIVE || count < 0 || in.remaining() != 2 * count) {
      throw new IllegalArgumentException("numeric");
    }
    BigInteger digits = BigInteger.ZERO;
    for (int i = 0; i < count; i++) {
      digits = digits.multiply(TEN_THOUSAND).add(BigInteger.valueOf(in.getShort()));
    }
    BigDecimal value = new BigDecimal(digits).movePointRight(4 * (weight - count + 1));
    value = value.setScale(scale, RoundingMode.UNNECESSARY);
    return sign == NUMERIC_NEGATIVE ? value.negate() : value;
  }
}
