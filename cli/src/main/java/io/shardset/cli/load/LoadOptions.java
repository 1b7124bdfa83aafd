package io.shardset.cli.load;

import java.util.Objects;

/**
 * How a load reads its files and treats bad rows.
 *
 * @param header whether each file starts with a header naming the columns
 * @param delimiter the field separator
 * @param batchSize rows per shard sent and committed at once
 * @param skipBad whether bad rows are counted and skipped, rather than stopping the load
 * @param listLimit how many bad rows the report lists
 * @param mode what happens to rows the table already holds
 */
public record LoadOptions(boolean header, char delimiter, int batchSize, boolean skipBad,
    int listLimit, WriteMode mode) {
  public LoadOptions {
    Objects.requireNonNull(mode, "mode");
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be positive: " + batchSize);
    }
    if (listLimit < 0) {
      throw new IllegalArgumentException("list limit must not be negative: " + listLimit);
    }
  }

  /** Header, comma, batches of 1,000, stop at the first bad row, upsert. */
  public static LoadOptions defaults() {
    return new LoadOptions(true, ',', 1_000, false, 20, WriteMode.UPSERT);
  }

  public LoadOptions withSkipBad(boolean skip) {
    return new LoadOptions(header, delimiter, batchSize, skip, listLimit, mode);
  }

  public LoadOptions withMode(WriteMode newMode) {
    return new LoadOptions(header, delimiter, batchSize, skipBad, listLimit, newMode);
  }

  public LoadOptions withBatchSize(int size) {
    return new LoadOptions(header, delimiter, size, skipBad, listLimit, mode);
  }

  public LoadOptions withHeader(boolean hasHeader) {
    return new LoadOptions(hasHeader, delimiter, batchSize, skipBad, listLimit, mode);
  }
}
