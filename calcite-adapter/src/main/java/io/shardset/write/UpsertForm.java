package io.shardset.write;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Locale;

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

  /**
   * The native upsert of a database, by the product name its JDBC driver reports; null for a
   * database ShardSet knows none of.
   */
  public static @Nullable UpsertForm ofProduct(String productName) {
    final String product = productName.toLowerCase(Locale.ROOT);
    if (product.contains("postgres")) {
      return ON_CONFLICT;
    }
    if (product.contains("mysql") || product.contains("mariadb")) {
      return ON_DUPLICATE_KEY;
    }
    return product.equals("h2") ? STANDARD_MERGE : null;
  }

  /** The statement's shape, as EXPLAIN shows it. */
  public String description() {
    return description;
  }
}
