package io.shardset.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A workload's results that do not fit the one-row-per-system table, such as throughput by
 * client count (w17) or plan and run times per TPC-H query (w18): a title, a note saying how
 * to read it, column names and rows of text cells, rendered as plain text and as Markdown.
 */
public record ResultTable(String title, String note, List<String> columns,
    List<List<String>> rows) {
  private static final Pattern LETTER = Pattern.compile("\\p{L}");

  public ResultTable {
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(note, "note");
    columns = List.copyOf(columns);
    final List<List<String>> copied = new ArrayList<>();
    for (List<String> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException("a row of " + row.size() + " cells in a table of "
            + columns.size() + " columns: " + row);
      }
      copied.add(List.copyOf(row));
    }
    rows = List.copyOf(copied);
  }

  /** The table as fixed-width text, each column as wide as its widest cell. */
  public String text() {
    final int[] widths = new int[columns.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = columns.get(i).length();
      for (List<String> row : rows) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    final boolean[] words = wordColumns();
    final StringBuilder b = new StringBuilder(title).append('\n');
    line(b, columns, widths, words);
    rows.forEach(row -> line(b, row, widths, words));
    return b.toString();
  }

  /** The table as a Markdown section: a heading, the note, and the table. */
  public String markdown() {
    final StringBuilder b = new StringBuilder("\n## ").append(title).append("\n\n");
    if (!note.isEmpty()) {
      b.append(note).append("\n\n");
    }
    b.append("| ").append(String.join(" | ", columns)).append(" |\n|");
    final boolean[] words = wordColumns();
    for (int i = 0; i < columns.size(); i++) {
      b.append(words[i] ? " --- |" : " ---: |");
    }
    b.append('\n');
    for (List<String> row : rows) {
      b.append("| ").append(String.join(" | ", row.stream()
          .map(cell -> cell.replace("|", "\\|")).toList())).append(" |\n");
    }
    return b.toString();
  }

  /**
   * Which columns hold words rather than numbers: the first (names), and any with a letter in
   * a cell; words read best left-aligned, numbers right-aligned.
   */
  private boolean[] wordColumns() {
    final boolean[] words = new boolean[columns.size()];
    for (int i = 0; i < words.length; i++) {
      final int column = i;
      words[i] = i == 0 || rows.stream().anyMatch(row -> LETTER.matcher(row.get(column)).find());
    }
    return words;
  }

  private static void line(StringBuilder b, List<String> cells, int[] widths, boolean[] words) {
    final StringBuilder line = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      line.append(String.format(Locale.ROOT, (i == 0 ? "" : "  ")
          + (words[i] ? "%-" : "%") + widths[i] + "s", cells.get(i)));
    }
    b.append(line.toString().stripTrailing()).append('\n');
  }
}
