package io.shardset.write;

/**
 * The native statement a shard's database upserts one row with: the row is inserted, or the
 * row with its primary key updated, in one statement that the database makes safe against a
 * concurrent upsert of the same key.
 */
public enum UpsertForm {
  /** PostgreSQL: {@code INSERT ... ON CONFLICT (key) DO UPDATE SET ...}. */
  ON_CONFLICT("INSERT ... ON CONFLICT DO UPDATE"),
  /** MySQL and MariaDB: {@code INSERT ... ON DUPLICATE KEY UPDATE ...}. */
  ON_DUPLICATE_KEY("INSERT ... ON DUPLICATE KEY UPDATE"),
  /** The SQL standard's, as H2 runs it: {@code MERGE INTO t USING (VALUES (...)) s ON key
   * WHEN MATCHED THEN UPDATE ... WHEN NOT MATCHED THEN INSERT ...}. */
  STANDARD_MERGE("MERGE INTO ... USING (VALUES ...)");

  private final String description;

  UpsertForm(String description) {
    this.description = description;
  }

  /** The statement's shape, as EXPLAIN shows it. */
  public String description() {
    return description;
  }
}
