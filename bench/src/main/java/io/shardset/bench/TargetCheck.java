package io.shardset.bench;

import java.util.Locale;

/**
 * The lines of "against the targets" for the targets that are one number against a limit,
 * such as w16's median time to prepare and execute a new statement shape: the measured value,
 * the limit and "met" or "missed", or why the target could not be checked.
 */
public final class TargetCheck {
  private TargetCheck() {
  }

  /** "what: value unit (at most limit): met|missed". */
  public static String atMost(String what, double value, double limit, String unit) {
    return String.format(Locale.ROOT, "%s: %s (at most %s): %s", what, withUnit(value, unit),
        number(limit), value <= limit ? "met" : "missed");
  }

  /** "what: value unit (at least limit): met|missed". */
  public static String atLeast(String what, double value, double limit, String unit) {
    return String.format(Locale.ROOT, "%s: %s (at least %s): %s", what, withUnit(value, unit),
        number(limit), value >= limit ? "met" : "missed");
  }

  /** "what: not checked, why". */
  public static String unchecked(String what, String why) {
    return what + ": not checked, " + why;
  }

  private static String withUnit(double value, String unit) {
    return unit.isEmpty() ? number(value) : number(value) + " " + unit;
  }

  /** Three significant digits at most, without a trailing zero fraction. */
  static String number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return String.format(Locale.ROOT, "%,d", (long) value);
    }
    return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
        : Math.abs(value) >= 10 ? String.format(Locale.ROOT, "%.1f", value)
        : String.format(Locale.ROOT, "%.2f", value);
  }
}
