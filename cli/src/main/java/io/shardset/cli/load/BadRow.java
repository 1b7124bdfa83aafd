package io.shardset.cli.load;

import java.util.Objects;

/**
 * A CSV record that could not be loaded.
 *
 * @param file the file's name as given on the command line
 * @param line the line the record starts on, counting from 1
 * @param reason why, naming the column and value when one is at fault
 */
public record BadRow(String file, long line, String reason) {
  public BadRow {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(reason, "reason");
  }

  /** The report line, {@code orders.csv:17: column AMOUNT: '12,5' is not a DECIMAL(12, 2)}. */
  @Override public String toString() {
    return file + ":" + line + ": " + reason;
  }
}
