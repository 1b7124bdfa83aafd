package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code COPY} statement the protocol serves: {@code COPY table [(columns)] FROM STDIN} and
 * {@code COPY table [(columns)] | (query) TO STDOUT}, with PostgreSQL's options in either
 * syntax ({@code WITH (FORMAT csv, HEADER)} or {@code WITH CSV HEADER}): the format (text or
 * CSV), a header line, the delimiter, the NULL string and CSV's quote.
 *
 * @param table the table as written (the query's text for a query), or null for a query
 * @param columns the columns as written, empty for all
 * @param query the query of {@code COPY (query) TO}, or null
 * @param in whether rows come from the client ({@code FROM STDIN})
 * @param csv whether the format is CSV, else PostgreSQL's text format
 * @param header whether the first line names the columns
 * @param delimiter the field delimiter
 * @param nullString the text of a NULL
 * @param quote CSV's quote
 */
record PgCopyCommand(@Nullable String table, List<String> columns, @Nullable String query,
    boolean in, boolean csv, boolean header, char delimiter, String nullString, char quote) {
  private static final Pattern COPY = Pattern.compile("(?is)^\\s*COPY\\s+(?:(\\(.*\\))|"
      + "((?:\"[^\"]*\"|[\\w$]+)(?:\\.(?:\"[^\"]*\"|[\\w$]+))?)\\s*(\\([^)]*\\))?)\\s+"
      + "(FROM\\s+STDIN|TO\\s+STDOUT)\\s*(.*)$");

  PgCopyCommand {
    columns = List.copyOf(columns);
  }

  /** The COPY statement {@code text} is, or empty if it is none. */
  static Optional<PgCopyCommand> parse(String text) {
    final Matcher copy = COPY.matcher(text);
    if (!copy.matches()) {
      return Optional.empty();
    }
    final String query = copy.group(1) == null ? null
        : copy.group(1).substring(1, copy.group(1).length() - 1);
    final List<String> columns = new ArrayList<>();
    if (copy.group(3) != null) {
      for (String column : copy.group(3).substring(1, copy.group(3).length() - 1).split(",")) {
        columns.add(column.trim());
      }
    }
    final boolean in = copy.group(4).toUpperCase(Locale.ROOT).startsWith("FROM");
    if (in && query != null) {
      throw new PgProtocolException("42601", "COPY FROM takes a table, not a query");
    }
    String options = copy.group(5).trim();
    if (options.regionMatches(true, 0, "WITH", 0, 4)) {
      options = options.substring(4).trim();
    }
    if (options.startsWith("(") && options.endsWith(")")) {
      options = options.substring(1, options.length() - 1);
    }
    boolean csv = false;
    boolean header = false;
    Character delimiter = null;
    String nullString = null;
    char quote = '"';
    final List<String> tokens = tokens(options);
    for (int i = 0; i < tokens.size(); i++) {
      final String name = tokens.get(i).toUpperCase(Locale.ROOT);
      final String next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
      switch (name) {
      case "CSV":
        csv = true;
        break;
      case "HEADER":
        if (next != null && BOOLEANS.contains(next.toLowerCase(Locale.ROOT))) {
          header = List.of("true", "on", "1").contains(next.toLowerCase(Locale.ROOT));
          i++;
        } else {
          header = true;
        }
        break;
      case "FORMAT":
        final String format = value(next, name);
        csv = "csv".equalsIgnoreCase(format);
        if (!csv && !"text".equalsIgnoreCase(format)) {
          throw new PgProtocolException("0A000", "COPY format " + format + " is not"
              + " supported: use text or csv");
        }
        i++;
        break;
      case "DELIMITER":
        delimiter = single(value(next, name), name);
        i++;
        break;
      case "NULL":
        nullString = value(next, name);
        i++;
        break;
      case "QUOTE":
        quote = single(value(next, name), name);
        i++;
        break;
      case "ENCODING":
        final String encoding = value(next, name);
        if (!encoding.replace("-", "").equalsIgnoreCase("UTF8")) {
          throw new PgProtocolException("0A000", "COPY encoding " + encoding
              + " is not supported: ShardSet speaks UTF8 only");
        }
        i++;
        break;
      case "AS":
        break;
      default:
        throw new PgProtocolException("0A000", "COPY option " + tokens.get(i)
            + " is not supported");
      }
    }
    return Optional.of(new PgCopyCommand(copy.group(2), columns, query, in, csv, header,
        delimiter != null ? delimiter : csv ? ',' : '\t',
        nullString != null ? nullString : csv ? "" : "\\N", quote));
  }

  private static final List<String> BOOLEANS = List.of("true", "false", "on", "off", "1",
      "0");

  /** The options' words and quoted strings (unquoted), without commas. */
  private static List<String> tokens(String options) {
    final List<String> tokens = new ArrayList<>();
    int i = 0;
    while (i < options.length()) {
      final char c = options.charAt(i);
      if (Character.isWhitespace(c) || c == ',') {
        i++;
      } else if (c == '\'') {
        int end = i + 1;
        while (end < options.length() && !(options.charAt(end) == '\''
            && (end + 1 == options.length() || options.charAt(end + 1) != '\''))) {
          end += options.charAt(end) == '\'' ? 2 : 1;
        }
        tokens.add(unquote(options.substring(i, Math.min(end + 1, options.length()))));
        i = end + 1;
      } else {
        int end = i;
        while (end < options.length() && !Character.isWhitespace(options.charAt(end))
            && options.charAt(end) != ',') {
          end++;
        }
        tokens.add(options.substring(i, end));
        i = end;
      }
    }
    return tokens;
  }

  /** An option's value, which it must have. */
  private static String value(@Nullable String next, String option) {
    if (next == null) {
      throw new PgProtocolException("42601", "COPY option " + option + " needs a value");
    }
    return next;
  }

  private static String unquote(String value) {
    return value.length() >= 2 && value.startsWith("'") && value.endsWith("'")
        ? value.substring(1, value.length() - 1).replace("''", "'") : value;
  }

  private static char single(@Nullable String value, String option) {
    if (value == null || value.length() != 1) {
      throw new PgProtocolException("22023", "COPY " + option.toLowerCase(Locale.ROOT)
          + " must be a single one-byte character");
    }
    return value.charAt(0);
  }
}
