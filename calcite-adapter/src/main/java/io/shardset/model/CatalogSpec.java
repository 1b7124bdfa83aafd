package io.shardset.model;

import java.util.Objects;
import java.util.regex.Pattern;

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
  private static final Pattern USER_INFO = Pattern.compile("//([^/@:]*):[^/@]*@");

  public CatalogSpec {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
  }

  /**
   * The settings as text that names no password: the URL without its properties (after
   * {@code ?} or {@code ;}, where a password may be given) and without a password in its
   * user part ({@code //user:password@host}).
   */
  @Override public String toString() {
    final int properties = firstOf(jdbcUrl, '?', ';');
    final String url = USER_INFO.matcher(properties < 0 ? jdbcUrl
        : jdbcUrl.substring(0, properties)).replaceFirst("//$1:****@");
    return "catalog " + url + (user.isEmpty() ? "" : " as " + user);
  }

  private static int firstOf(String text, char a, char b) {
    final int i = text.indexOf(a);
    final int j = text.indexOf(b);
    return i < 0 ? j : j < 0 ? i : Math.min(i, j);
  }
}
