package io.shardset.calcite.guard;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Locale;
import java.util.Properties;

/**
 * What a connection's properties say about its statements' activity: the slow-statement
 * threshold ({@value #SLOW_MILLIS}, none by default), whether the slow-statement log shows
 * literal values ({@value #SLOW_LITERALS}, masked by default), and which running statements the
 * connection sees in full and may cancel ({@value #STATEMENTS}: {@code all}, the default, or
 * {@code own}, the statements of its own user, which a server sets for users without its
 * operator role).
 *
 * @param slowMillis statements that take at least this long are logged; 0 for none
 * @param slowLiterals whether the log shows literal values
 * @param seesAll whether the connection sees and may cancel every user's statements
 */
public record ActivitySettings(long slowMillis, boolean slowLiterals, boolean seesAll) {
  /** The connection property of the slow-statement threshold, in milliseconds. */
  public static final String SLOW_MILLIS = "slowQueryMillis";
  /** The connection property that logs slow statements with their literal values. */
  public static final String SLOW_LITERALS = "slowQueryLiterals";
  /** The connection property that says whose running statements the connection sees. */
  public static final String STATEMENTS = "statements";

  /** No slow-statement log, every statement visible. */
  public static final ActivitySettings DEFAULT = new ActivitySettings(0, false, true);

  /**
   * The settings the properties make.
   *
   * @throws IllegalArgumentException naming the property and what it expects
   */
  public static ActivitySettings of(@Nullable Properties properties) {
    if (properties == null) {
      return DEFAULT;
    }
    return new ActivitySettings(millis(properties.getProperty(SLOW_MILLIS)),
        either(SLOW_LITERALS, properties.getProperty(SLOW_LITERALS), "true", "false", false),
        either(STATEMENTS, properties.getProperty(STATEMENTS), "all", "own", true));
  }

  private static long millis(@Nullable String text) {
    if (text == null) {
      return 0;
    }
    try {
      final long millis = Long.parseLong(text.trim());
      if (millis >= 0) {
        return millis;
      }
    } catch (NumberFormatException e) {
      // Named below.
    }
    throw new IllegalArgumentException("connection property " + SLOW_MILLIS
        + ": expected a number of milliseconds (0 or more), got '" + text + "'");
  }

  /**
   * A property with two values: true for {@code yes}, false for {@code no}, {@code absent}
   * when not set.
   *
   * @throws IllegalArgumentException naming the property and its two values
   */
  private static boolean either(String name, @Nullable String text, String yes, String no,
      boolean absent) {
    if (text == null) {
      return absent;
    }
    final String value = text.trim().toLowerCase(Locale.ROOT);
    if (value.equals(yes) || value.equals(no)) {
      return value.equals(yes);
    }
    throw new IllegalArgumentException("connection property " + name + ": expected " + yes
        + " or " + no + ", got '" + text + "'");
  }
}
