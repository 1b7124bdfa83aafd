package io.shardset.calcite.runtime;

import org.apache.calcite.DataContext;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A TIMESTAMP parameter's value with a fraction finer than a millisecond
 * ({@code 10:00:00.123456}), which Calcite's generated code cannot carry: it represents a
 * TIMESTAMP as milliseconds since the epoch. The execution's context gives Calcite
 * {@link #millis()} under the parameter's name ({@code ?N}), and the exact value under
 * {@link #exactName}, which ShardSet reads where values go to the shards: the parameters of
 * the statements the shards run, and the rows it writes ({@link ExactTimestamps}). Without
 * it, a row written with microseconds would be stored with milliseconds.
 *
 * @param exact the value, to the nanosecond
 */
public record TimestampParameter(LocalDateTime exact) {
  private static final String EXACT = "#exact";
  private static final long NANOS_PER_MILLI = 1_000_000L;

  public TimestampParameter {
    Objects.requireNonNull(exact, "exact");
  }

  /** Whether {@code value} has a fraction finer than a millisecond. */
  public static boolean isFinerThanMillis(LocalDateTime value) {
    return value.getNano() % NANOS_PER_MILLI != 0;
  }

  /** The value as Calcite carries it: milliseconds since the epoch, the fraction below a
   * millisecond dropped (toward the past, as Calcite drops it from a literal). */
  public long millis() {
    return millis(exact);
  }

  /** {@code value} as Calcite carries a TIMESTAMP: milliseconds since the epoch, the
   * fraction below a millisecond dropped. */
  public static long millis(LocalDateTime value) {
    return value.toEpochSecond(ZoneOffset.UTC) * 1000L + value.getNano() / NANOS_PER_MILLI;
  }

  /** The date and time {@code millis} since the epoch (a TIMESTAMP as Calcite carries it)
   * and {@code nanosBelowMillis} more stand for. */
  public static LocalDateTime of(long millis, int nanosBelowMillis) {
    return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
        (int) (Math.floorMod(millis, 1000L) * NANOS_PER_MILLI) + nanosBelowMillis,
        ZoneOffset.UTC);
  }

  /** The name under which an execution's context gives parameter {@code index}'s exact
   * value. */
  public static String exactName(int index) {
    return "?" + index + EXACT;
  }

  /** The parameter name in {@code name}, if it is an {@link #exactName}; else null. */
  public static @Nullable String parameterName(String name) {
    return name.endsWith(EXACT) && name.startsWith("?")
        ? name.substring(0, name.length() - EXACT.length()) : null;
  }

  /** Parameter {@code index}'s exact TIMESTAMP value in the execution, or null when it has
   * none finer than a millisecond (or is not a TIMESTAMP). */
  public static @Nullable LocalDateTime exact(DataContext root, int index) {
    return root.get(exactName(index)) instanceof LocalDateTime exact ? exact : null;
  }

  /** Parameter {@code index}'s value: the exact TIMESTAMP where it has one, else the value
   * Calcite holds. */
  public static @Nullable Object value(DataContext root, int index) {
    final LocalDateTime exact = exact(root, index);
    return exact != null ? exact : root.get("?" + index);
  }
}
