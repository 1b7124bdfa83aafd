package io.shardset.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A workload's results that do not fit the one-row-per-system table, such as throughput by
 * client count (w17) or plan and run times per TPC-H query (w18): a title, a note saying how
 * to read it, column names and rows of text cells, rendered as plain text and as Markdown.
 */
public record ResultTable(String title, String note, List<String> columns,
    List<List<String>> rows) {
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
    final StringBuilder b = new StringBuilder(title).append('\n');
    line(b, columns, widths);
    rows.forEach(row -> line(b, row, widths));
    return b.toString();
  }

  /** The table as a Markdown section: a heading, the note, and the table. */
  public String markdown() {
    final StringBuilder b = new StringBuilder("\n## ").append(title).append("\n\n");
    if (!note.isEmpty()) {
      b.append(note).append("\n\n");
    }
    b.append("| ").append(String.join(" | ", columns)).append(" |\n|");
    for (int i = 0; i < columns.size(); i++) {
      b.append(i == 0 ? " --- |" : " ---: |");
    }
    b.append('\n');
    for (List<String> row : rows) {
      b.append("| ").append(String.join(" | ", row.stream()
          .map(cell -> cell.replace("|", "\\|")).toList())).append(" |\n");
    }
    return b.toString();
  }

  private static void line(StringBuilder b, List<String> cells, int[] widths) {
    for (int i = 0; i < cells.size(); i++) {
      // The first column (a name) reads best left-aligned, numbers right-aligned.
      final String format = i == 0 ? "%-" + widths[i] + "s" : "  %" + widths[i] + "s";
      b.append(String.format(Locale.ROOT, format, cells.get(i)));
    }
    b.append('\n');
  }
}
