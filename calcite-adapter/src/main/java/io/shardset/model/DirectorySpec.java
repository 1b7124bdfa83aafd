package io.shardset.model;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The {@code directory} of a lookup table: the database table that names each key's shard,
 * and how long its answers may be cached.
 *
 * @param jdbcUrl the directory database's JDBC URL
 * @param jdbcUser the user, or null
 * @param jdbcPassword the password, or null; never shown by {@link #toString()}
 * @param table the directory table
 * @param keyColumn the directory table's key column
 * @param shardColumn the directory table's column holding shard names
 * @param cacheSize the most entries cached
 * @param cacheSeconds how long a cached entry is trusted; 0 turns caching off
 */
public record DirectorySpec(String jdbcUrl, String jdbcUser, String jdbcPassword, String table,
    String keyColumn, String shardColumn, int cacheSize, int cacheSeconds) {
  /** The password in a JDBC URL, for hiding it. */
  private static final Pattern PASSWORD = Pattern.compile("(?i)(password=)[^&;]*");

  /** The directory table when the model names none. */
  public static final String DEFAULT_TABLE = "SHARD_DIRECTORY";
  /** The shard name column when the model names none. */
  public static final String DEFAULT_SHARD_COLUMN = "SHARD_NAME";
  /** The most cached entries when the model gives no {@code cacheSize}. */
  public static final int DEFAULT_CACHE_SIZE = 10_000;
  /** How long entries are cached when the model gives no {@code cacheSeconds}. */
  public static final int DEFAULT_CACHE_SECONDS = 30;

  public DirectorySpec {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(keyColumn, "keyColumn");
    Objects.requireNonNull(shardColumn, "shardColumn");
    if (cacheSize < 1 || cacheSeconds < 0) {
      throw new IllegalArgumentException("cacheSize " + cacheSize + " must be positive,"
          + " cacheSeconds " + cacheSeconds + " must not be negative");
    }
  }

  /** Describes the directory without its password. */
  @Override public String toString() {
    return "DirectorySpec[jdbcUrl=" + PASSWORD.matcher(jdbcUrl).replaceAll("$1***")
        + ", jdbcUser=" + jdbcUser
        + ", jdbcPassword=" + (jdbcPassword == null ? null : "***")
        + ", table=" + table
        + ", keyColumn=" + keyColumn
        + ", shardColumn=" + shardColumn
        + ", cacheSize=" + cacheSize
        + ", cacheSeconds=" + cacheSeconds + "]";
  }
}
