package io.shardset.cli.load;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Reads CSV records as RFC 4180 writes them (a quoted field may span lines, {@code ""} is a
 * quote inside one), telling a record with malformed quotes from the records around it so that
 * it can be reported at its line and skipped; a byte-order mark before the first record is
 * dropped.
 *
 * <p>An empty unquoted field is null, a quoted empty field an empty string. A quote opens a
 * quoted field only at the field's start; elsewhere it is an ordinary character.
 */
final class CsvRecords {
  private static final char QUOTE = '"';
  private static final char BYTE_ORDER_MARK = '\uFEFF';

  /** Where a record's scan stands. */
  private enum State { FIELD_START, UNQUOTED, QUOTED, QUOTE_IN_QUOTED, AFTER_CLOSING_QUOTE }

  /**
   * One record.
   *
   * @param line the line it starts on, counting from 1
   * @param fields its fields; empty for a blank line or a malformed record
   * @param malformed what is wrong with its quotes, or null
   */
  record Record(long line, List<@Nullable String> fields, @Nullable String malformed) {
    Record {
      fields = Collections.unmodifiableList(new ArrayList<>(fields));
    }

    /** Whether the record is a line with nothing on it. */
    boolean blank() {
      return malformed == null && fields.size() == 1 && fields.get(0) == null;
    }
  }

  private final Reader reader;
  private final char delimiter;
  /** Text read once and given back to be read again, after a quote that was never closed. */
  private final StringBuilder again = new StringBuilder();
  private int againAt;
  private final char[] buffer = new char[1 << 16];
  /** The next character of {@link #buffer} to read, and the end of what it holds. */
  private int position;
  private int limit;
  private long line = 1;
  private boolean started;

  CsvRecords(Reader reader, char delimiter) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.delimiter = delimiter;
  }

  /** The next record, or null at the end of the text. */
  @Nullable Record next() throws IOException {
    if (!started) {
      started = true;
      final int first = read();
      if (first != BYTE_ORDER_MARK && first >= 0) {
        unread(String.valueOf((char) first));
      }
    }
    final long start = line;
    final StringBuilder raw = new StringBuilder();
    final List<@Nullable String> fields = new ArrayList<>();
    final StringBuilder field = new StringBuilder();
    State state = State.FIELD_START;
    String malformed = null;
    while (true) {
      final int c = read();
      if (c < 0) {
        if (state == State.QUOTED) {
          return unclosed(start, raw, fields.size() + 1);
        }
        if (raw.length() == 0) {
          return null;
        }
        return finish(start, fields, field, state, malformed);
      }
      final char ch = (char) c;
      raw.append(ch);
      if (state == State.QUOTED) {
        if (ch == QUOTE) {
          state = State.QUOTE_IN_QUOTED;
        } else {
          field.append(ch);
          if (ch == '\r' && skipNewline()) {
            field.append('\n');
            raw.append('\n');
          }
          if (ch == '\n' || ch == '\r') {
            line++;
          }
        }
        continue;
      }
      if (state == State.QUOTE_IN_QUOTED && ch == QUOTE) {
        field.append(QUOTE);
        state = State.QUOTED;
        continue;
      }
      if (ch == '\n' || ch == '\r') {
        if (ch == '\r') {
          skipNewline();
        }
        line++;
        return finish(start, fields, field, state, malformed);
      }
      if (ch == delimiter) {
        fields.add(value(field, state));
        field.setLength(0);
        state = State.FIELD_START;
      } else if (state == State.FIELD_START && ch == QUOTE) {
        state = State.QUOTED;
      } else if (state == State.QUOTE_IN_QUOTED || state == State.AFTER_CLOSING_QUOTE) {
        if (malformed == null) {
          malformed = "text after the closing quote of field " + (fields.size() + 1);
        }
        state = State.AFTER_CLOSING_QUOTE;
      } else {
        field.append(ch);
        state = State.UNQUOTED;
      }
    }
  }

  private static Record finish(long start, List<@Nullable String> fields, StringBuilder field,
      State state, @Nullable String malformed) {
    if (malformed != null) {
      return new Record(start, List.of(), "malformed CSV: " + malformed);
    }
    fields.add(value(field, state));
    return new Record(start, fields, null);
  }

  /** An empty unquoted field is null; a quoted one is its text, even empty. */
  private static @Nullable String value(StringBuilder field, State state) {
    return state == State.FIELD_START ? null : field.toString();
  }

  /**
   * A quote left open runs to the end of the text. Only the record's first line is taken as
   * bad; reading resumes on the line after it, so one stray quote costs one line.
   */
  private Record unclosed(long start, StringBuilder raw, int field) {
    int end = 0;
    while (end < raw.length() && raw.charAt(end) != '\n' && raw.charAt(end) != '\r') {
      end++;
    }
    if (end < raw.length() - 1 && raw.charAt(end) == '\r' && raw.charAt(end + 1) == '\n') {
      end++;
    }
    unread(raw.substring(Math.min(end + 1, raw.length())));
    line = start + 1;
    return new Record(start, List.of(),
        "malformed CSV: the quote that opens field " + field + " is never closed");
  }

  /** Reads the {@code \n} of a {@code \r\n} line end; whether there was one. */
  private boolean skipNewline() throws IOException {
    final int next = read();
    if (next >= 0 && next != '\n') {
      unread(String.valueOf((char) next));
    }
    return next == '\n';
  }

  private int read() throws IOException {
    if (againAt < again.length()) {
      return again.charAt(againAt++);
    }
    if (position == limit) {
      // A block at a time: a Reader's read() of one character takes a lock each time.
      position = 0;
      limit = Math.max(0, reader.read(buffer, 0, buffer.length));
      if (limit == 0) {
        return -1;
      }
    }
    return buffer[position++];
  }

  private void unread(String text) {
    again.delete(0, againAt);
    againAt = 0;
    again.insert(0, text);
  }
}
