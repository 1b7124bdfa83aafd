package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * The rows of COPY's data as PostgreSQL writes and reads them: its text format (fields split
 * by a tab, {@code \N} for NULL, backslash escapes) or CSV (fields quoted where they hold the
 * delimiter, a quote or a line break; an unquoted empty field NULL).
 */
final class PgCopyFormat {
  private final boolean csv;
  private final char delimiter;
  private final String nullString;
  private final char quote;

  PgCopyFormat(PgCopyCommand command) {
    this.csv = command.csv();
    this.delimiter = command.delimiter();
    this.nullString = command.nullString();
    this.quote = command.quote();
  }

  /** Where the record that starts at {@code from} ends (its line break), or -1 if the text
   * holds no whole record yet. */
  int recordEnd(CharSequence text, int from) {
    boolean quoted = false;
    for (int i = from; i < text.length(); i++) {
      final char c = text.charAt(i);
      if (csv && c == quote) {
        quoted = !quoted;
      } else if (c == '\n' && !quoted) {
        return i;
      }
    }
    return -1;
  }

  /** A record's fields, null for NULL; the record without its line break. */
  List<@Nullable String> fields(String record) {
    final String line = record.endsWith("\r") ? record.substring(0, record.length() - 1)
        : record;
    return csv ? csvFields(line) : textFields(line);
  }

  /** A row as a record, with its line break. */
  String record(List<@Nullable String> values) {
    final StringBuilder out = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append(delimiter);
      }
      final String value = values.get(i);
      if (value == null) {
        out.append(nullString);
      } else if (csv) {
        csvField(out, value);
      } else {
        textField(out, value);
      }
    }
    return out.append('\n').toString();
  }

  private List<@Nullable String> textFields(String line) {
    final List<@Nullable String> fields = new ArrayList<>();
    int start = 0;
    while (true) {
      final int end = line.indexOf(delimiter, start);
      final String raw = end < 0 ? line.substring(start) : line.substring(start, end);
      fields.add(raw.equals(nullString) ? null : unescape(raw));
      if (end < 0) {
        return fields;
      }
      start = end + 1;
    }
  }

  /** A text-format field without its backslash escapes. */
  private static String unescape(String raw) {
    if (raw.indexOf('\\') < 0) {
      return raw;
    }
    final StringBuilder out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      final char c = raw.charAt(i);
      if (c != '\\' || i + 1 == raw.length()) {
        out.append(c);
        continue;
      }
      final char next = raw.charAt(++i);
      switch (next) {
      case 'b':
        out.append('\b');
        break;
      case 'f':
        out.append('\f');
        break;
      case 'n':
        out.append('\n');
        break;
      case 'r':
        out.append('\r');
        break;
      case 't':
        out.append('\t');
        break;
      case 'v':
        out.append('\u000b');
        break;
      case 'x':
        int hex = i + 1;
        while (hex < raw.length() && hex < i + 3 && Character.digit(raw.charAt(hex), 16) >= 0) {
          hex++;
        }
        if (hex == i + 1) {
          out.append('x');
        } else {
          out.append((char) Integer.parseInt(raw.substring(i + 1, hex), 16));
          i = hex - 1;
        }
        break;
      default:
        if (next >= '0' && next <= '7') {
          int octal = i;
          while (octal < raw.length() && octal < i + 3 && raw.charAt(octal) >= '0'
              && raw.charAt(octal) <= '7') {
            octal++;
          }
          out.append((char) Integer.parseInt(raw.substring(i, octal), 8));
          i = octal - 1;
        } else {
          out.append(next);
        }
      }
    }
    return out.toString();
  }

  private void textField(StringBuilder out, String value) {
    for (int i = 0; i < value.length(); i++) {
      final char c = value.charAt(i);
      if (c == '\\') {
        out.append("\\\\");
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c == delimiter) {
        out.append('\\').append(c);
      } else {
        out.append(c);
      }
    }
  }

  private List<@Nullable String> csvFields(String line) {
    final List<@Nullable String> fields = new ArrayList<>();
    final StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < line.length(); i++) {
      final char c = line.charAt(i);
      if (quoted) {
        if (c == quote && i + 1 < line.length() && line.charAt(i + 1) == quote) {
          field.append(quote);
          i++;
        } else if (c == quote) {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == quote) {
        quoted = true;
        wasQuoted = true;
      } else if (c == delimiter) {
        fields.add(csvValue(field, wasQuoted));
        field.setLength(0);
        wasQuoted = false;
      } else {
        field.append(c);
      }
    }
    fields.add(csvValue(field, wasQuoted));
    return fields;
  }

  private @Nullable String csvValue(StringBuilder field, boolean wasQuoted) {
    final String value = field.toString();
    return !wasQuoted && value.equals(nullString) ? null : value;
  }

  private void csvField(StringBuilder out, String value) {
    final boolean quoting = value.isEmpty() || value.equals(nullString)
        || value.indexOf(delimiter) >= 0 || value.indexOf(quote) >= 0
        || value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0;
    if (!quoting) {
      out.append(value);
      return;
    }
    out.append(quote);
    for (int i = 0; i < value.length(); i++) {
      final char c = value.charAt(i);
      if (c == quote) {
        out.append(quote);
      }
      out.append(c);
    }
    out.append(quote);
  }
}
