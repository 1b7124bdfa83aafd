package io.shardset.calcite.plan;

import io.shardset.execution.ExternalSort;
import io.shardset.execution.SpillFiles;

import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.Enumerable;

import java.util.Comparator;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory each sort, grouping or hash join of a statement above the shards may take before
 * it spills to temporary files ({@link ExternalSort}, {@link JoinMemory}): the connection
 * property {@value #PROPERTY}, a size such as {@code 256MB}, {@code 512KB} or {@code 1GB} (a
 * plain number is MB), by default {@value #DEFAULT_MIB} MB or an eighth of the JVM's heap,
 * whichever is less (a statement may run several such operators at once); the files go to
 * {@code java.io.tmpdir}. Generated code calls {@link #sort} in place of Calcite's in-memory
 * {@code orderBy}. It lives with the plan node whose code calls it,
 * {@link EnumerableSpillingSort}.
 */
public final class SortMemory {
  /** The connection property that sets the budget, in MiB. */
  public static final String PROPERTY = "sortMemory";
  /** The budget when the connection does not set one, unless the heap is small. */
  public static final long DEFAULT_MIB = 64;
  /** The share of the heap the default budget stays within. */
  private static final int HEAP_SHARE = 8;

  private static final Pattern SIZE =
      Pattern.compile("([0-9]{1,18})\\s*(KB|MB|GB)?", Pattern.CASE_INSENSITIVE);

  private SortMemory() {
  }

  /** The rows in the comparator's order, sorted within the statement's budget. */
  public static <T> Enumerable<T> sort(Enumerable<T> input, Comparator<T> comparator,
      DataContext root) {
    return ExternalSort.sort(input, comparator, bytes(root),
        SpillFiles.directory());
  }

  /** The budget as errors name it: "the sort memory of 16 MB (connection property ...)". */
  static String describe(long bytes) {
    final String size = bytes % (1L << 20) == 0 ? (bytes >> 20) + " MB"
        : bytes % (1L << 10) == 0 ? (bytes >> 10) + " KB" : bytes + " bytes";
    return "the sort memory of " + size + " (connection property " + PROPERTY + ")";
  }

  /** The budget of the statement's connection, in bytes. */
  static long bytes(DataContext root) {
    if (root.getQueryProvider() instanceof CalciteConnection connection) {
      final String size = connection.getProperties().getProperty(PROPERTY);
      if (size != null) {
        return parse(size);
      }
    }
    return defaultBytes();
  }

  /** The budget when the connection does not set one: {@value #DEFAULT_MIB} MB, or an eighth
   * of the heap when that is less. */
  public static long defaultBytes() {
    return Math.min(DEFAULT_MIB << 20, Runtime.getRuntime().maxMemory() / HEAP_SHARE);
  }

  /**
   * A size: digits, then KB, MB or GB (MB when none), in bytes.
   *
   * @throws IllegalArgumentException naming the property, for anything else
   */
  public static long parse(String size) {
    final Matcher m = SIZE.matcher(size.trim());
    if (m.matches()) {
      final long value = Long.parseLong(m.group(1));
      final String unit = m.group(2) == null ? "MB" : m.group(2).toUpperCase(Locale.ROOT);
      final int shift = switch (unit) {
      case "KB" -> 10;
      case "GB" -> 30;
      default -> 20;
      };
      if (value > 0 && value < 1L << (62 - shift)) {
        return value << shift;
      }
    }
    throw new IllegalArgumentException("connection property " + PROPERTY + " must be a"
        + " positive size such as 256MB, 512KB or 1GB, not '" + size + "'");
  }
}
