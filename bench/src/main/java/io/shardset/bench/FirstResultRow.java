package io.shardset.bench;

import java.util.regex.Pattern;

/**
 * Recognizes the first data row of a numeric result in sqlline's table output, such as
 * {@code | 200000 |}: the moment w10 stops its clock. The header ({@code | ORDER_COUNT |}),
 * the borders ({@code +-----+}) and sqlline's messages do not match.
 */
final class FirstResultRow {
  private static final Pattern NUMERIC_ROW =
      Pattern.compile("^\\|(\\s*-?\\d[\\d.,]*\\s*\\|)+$");

  private FirstResultRow() {
  }

  static boolean matches(String line) {
    return NUMERIC_ROW.matcher(line.strip()).matches();
  }
}
