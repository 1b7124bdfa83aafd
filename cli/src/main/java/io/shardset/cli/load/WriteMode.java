package io.shardset.cli.load;

/** What a load does with rows the table already holds. */
public enum WriteMode {
  /** Rows with the key of an existing row replace it (by primary key); a re-run adds nothing. */
  UPSERT,
  /** Every shard's table is emptied first, then rows are written as by {@link #UPSERT}, or
   * inserted when the table has no primary key. */
  TRUNCATE,
  /** Rows are inserted as they are; loading a file twice duplicates its rows. */
  APPEND
}
