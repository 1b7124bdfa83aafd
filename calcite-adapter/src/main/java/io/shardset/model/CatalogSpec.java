package io.shardset.model;

import java.util.Objects;

/**
 * Where a schema's model is kept when a model file points at a catalog database instead of
 * listing shards and tables: the {@code catalog} object of the schema's operand, its
 * {@code ${env:NAME}} placeholders replaced.
 *
 * @param jdbcUrl the catalog database's JDBC URL
 * @param user its user, or empty
 * @param password its password, or empty
 */
public record CatalogSpec(String jdbcUrl, String user, String password) {
  public CatalogSpec {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
  }

  /** The settings as text that names no password. */
  @Override public String toString() {
    return "catalog " + jdbcUrl + (user.isEmpty() ? "" : " as " + user);
  }
}
