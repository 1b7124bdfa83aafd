package io.shardset.cli.load;

import java.util.ArrayList;
import java.util.List;

/** The bad rows of a load: all of them counted, the first few kept for the report. */
public final class BadRows {
  private final int listLimit;
  private final List<BadRow> listed = new ArrayList<>();
  private long count;

  /** Keeps at most {@code listLimit} rows for the report. */
  public BadRows(int listLimit) {
    if (listLimit < 0) {
      throw new IllegalArgumentException("listLimit must not be negative: " + listLimit);
    }
    this.listLimit = listLimit;
  }

  public void add(BadRow row) {
    count++;
    if (listed.size() < listLimit) {
      listed.add(row);
    }
  }

  public long count() {
    return count;
  }

  /** The first bad rows, at most the list limit. */
  public List<BadRow> listed() {
    return List.copyOf(listed);
  }

  /** The report: one line per listed row, and how many more there were. */
  public List<String> report() {
    final List<String> lines = new ArrayList<>();
    listed.forEach(row -> lines.add(row.toString()));
    if (count > listed.size()) {
      lines.add("... and " + (count - listed.size()) + " more bad rows");
    }
    return lines;
  }
}
