package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Locale;
import java.util.UUID;

/**
 * A value in PostgreSQL's text format, as a DataRow carries it to a client that asked for
 * text, and as PostgreSQL 15 prints it with its default settings ({@code DateStyle ISO},
 * {@code extra_float_digits 1}, {@code bytea_output hex}): booleans {@code t} and {@code f};
 * numerics with their scale; floating point numbers in their shortest exact form, plain from
 * 1e-4 up to 1e15 (1e6 for {@code real}) and in exponent form ({@code 1e+15}) beyond;
 * dates, times and timestamps in ISO form with at most six fractional digits, none trailing;
 * {@code bytea} as {@code \x} and hex. Dates before the common era are not written yet.
 */
public final class PgText {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private PgText() {
  }

  /** The text of a value as a JDBC driver returns it from {@code getObject}; null for NULL. */
  public static @Nullable String of(@Nullable Object value) {
    if (value == null) {
      return null;
    } else if (value instanceof Boolean b) {
      return b ? "t" : "f";
    } else if (value instanceof BigDecimal d) {
      return d.toPlainString();
    } else if (value instanceof Double d) {
      return floating(d, false, 15);
    } else if (value instanceof Float f) {
      return floating(f, true, 6);
    } else if (value instanceof java.sql.Timestamp t) {
      return timestamp(t.toLocalDateTime());
    } else if (value instanceof java.sql.Date d) {
      return date(d.toLocalDate());
    } else if (value instanceof java.sql.Time t) {
      // toLocalTime() drops the milliseconds a Time holds.
      return time(t.toLocalTime().withNano((int) Math.floorMod(t.getTime(), 1000L) * 1_000_000));
    } else if (value instanceof LocalDateTime t) {
      return timestamp(t);
    } else if (value instanceof LocalDate d) {
      return date(d);
    } else if (value instanceof LocalTime t) {
      return time(t);
    } else if (value instanceof byte[] bytes) {
      return bytea(bytes);
    } else if (value instanceof UUID u) {
      return u.toString();
    }
    return value.toString();
  }

  /**
   * A floating point number as PostgreSQL writes it: the shortest digits that read back as
   * the same number, plainly where the decimal exponent is from -4 to below {@code plainBelow},
   * else as {@code d.ddde+XX}.
   */
  private static String floating(double value, boolean single, int plainBelow) {
    if (Double.isNaN(value)) {
      return "NaN";
    } else if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    } else if (value == 0) {
      return 1 / value < 0 ? "-0" : "0";
    }
    final BigDecimal exact = shortest(value, single).stripTrailingZeros();
    final int exponent = exact.precision() - exact.scale() - 1;
    if (exponent >= -4 && exponent < plainBelow) {
      return exact.toPlainString();
    }
    final String digits = exact.unscaledValue().abs().toString();
    final StringBuilder text = new StringBuilder();
    if (exact.signum() < 0) {
      text.append('-');
    }
    text.append(digits.charAt(0));
    if (digits.length() > 1) {
      text.append('.').append(digits, 1, digits.length());
    }
    text.append('e').append(exponent < 0 ? '-' : '+');
    final int magnitude = Math.abs(exponent);
    if (magnitude < 10) {
      text.append('0');
    }
    return text.append(magnitude).toString();
  }

  /**
   * The fewest significant digits that read back as the same {@code double} (or
   * {@code float}): the exact value rounded to 1, 2, ... digits until one does. Java's own
   * {@code toString} gives more digits than needed for some values before Java 19
   * ({@code 4.9E-324} where PostgreSQL writes {@code 5e-324}).
   */
  private static BigDecimal shortest(double value, boolean single) {
    final BigDecimal exact = new BigDecimal(value);
    for (int digits = 1; digits < 17; digits++) {
      final BigDecimal rounded = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
      if (single ? rounded.floatValue() == (float) value : rounded.doubleValue() == value) {
        return rounded;
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
  }

  private static String date(LocalDate date) {
    if (date.getYear() <= 0) {
      throw new IllegalArgumentException("dates before the common era are not written yet: "
          + date);
    }
    return String.format(Locale.ROOT, "%04d-%02d-%02d", date.getYear(), date.getMonthValue(),
        date.getDayOfMonth());
  }

  private static String time(LocalTime time) {
    final StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%02d:%02d:%02d",
        time.getHour(), time.getMinute(), time.getSecond()));
    final int micros = time.getNano() / 1000;
    if (micros != 0) {
      String fraction = String.format(Locale.ROOT, "%06d", micros);
      int end = fraction.length();
      while (fraction.charAt(end - 1) == '0') {
        end--;
      }
      text.append('.').append(fraction, 0, end);
    }
    return text.toString();
  }

  private static String timestamp(LocalDateTime timestamp) {
    return date(timestamp.toLocalDate()) + " " + time(timestamp.toLocalTime());
  }

  private static String bytea(byte[] bytes) {
    final StringBuilder text = new StringBuilder(2 + 2 * bytes.length).append("\\x");
    for (byte b : bytes) {
      text.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    }
    return text.toString();
  }
}
