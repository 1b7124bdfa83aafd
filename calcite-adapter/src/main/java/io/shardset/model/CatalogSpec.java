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
 * @param leaseMillis how long a process that opened the model may serve without having
 *     reached the catalog; past it, other processes go on without it and it refuses statements
 *     until it reaches the catalog again
 * @param pollMillis how often a process looks for a new version (and, on PostgreSQL, how long
 *     it waits for a notification before looking anyway)
 */
public record CatalogSpec(String jdbcUrl, String user, String password, long leaseMillis,
    long pollMillis) {
  /** Thirty seconds: what a catalog outage a process rides out, and how long a move waits for
   * a process that died before going on without it. */
  public static final long DEFAULT_LEASE_MILLIS = 30_000;
  /** One second. */
  public static final long DEFAULT_POLL_MILLIS = 1_000;
  private static final Pattern USER_INFO = Pattern.compile("//([^/@:]*):[^/@]*@");

  public CatalogSpec {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (leaseMillis < 1 || pollMillis < 1 || pollMillis * 3 > leaseMillis) {
      throw new IllegalArgumentException("leaseMillis must be at least three times pollMillis,"
          + " both positive; got " + leaseMillis + " and " + pollMillis);
    }
  }

  /** The settings with the default lease and poll interval. */
  public CatalogSpec(String jdbcUrl, String user, String password) {
    this(jdbcUrl, user, password, DEFAULT_LEASE_MILLIS, DEFAULT_POLL_MILLIS);
  }

  /** What tells two catalogs apart: the URL and the user, not the password. */
  public String identity() {
    return jdbcUrl + "\u0000" + user;
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
