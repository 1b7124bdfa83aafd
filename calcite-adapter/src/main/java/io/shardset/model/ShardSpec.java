package io.shardset.model;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One shard of a model: a JDBC database and the shardspace it belongs to.
 *
 * @param name the shard's unique name
 * @param jdbcUrl the JDBC URL
 * @param jdbcUser the user, or null
 * @param jdbcPassword the password, or null; never shown by {@link #toString()}
 * @param jdbcDriver the driver class name, or null to let {@link java.sql.DriverManager} find it
 * @param jdbcCatalog the catalog holding the tables, or null
 * @param jdbcSchema the schema holding the tables, or null
 * @param shardspace the shardspace; {@code "default"} unless the model says otherwise
 */
public record ShardSpec(String name, String jdbcUrl, String jdbcUser, String jdbcPassword,
    String jdbcDriver, String jdbcCatalog, String jdbcSchema, String shardspace) {
  /** The shardspace of shards whose model names none. */
  public static final String DEFAULT_SHARDSPACE = "default";

  private static final Pattern URL_PASSWORD =
      Pattern.compile("(?i)(password=)[^&;]*");

  public ShardSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(shardspace, "shardspace");
  }

  /** Describes the shard without its password, also hiding one written into the URL. */
  @Override public String toString() {
    return "ShardSpec[name=" + name
        + ", jdbcUrl=" + URL_PASSWORD.matcher(jdbcUrl).replaceAll("$1***")
        + ", jdbcUser=" + jdbcUser
        + ", jdbcPassword=" + (jdbcPassword == null ? null : "***")
        + ", jdbcDriver=" + jdbcDriver
        + ", jdbcCatalog=" + jdbcCatalog
        + ", jdbcSchema=" + jdbcSchema
        + ", shardspace=" + shardspace + "]";
  }
}
