package io.shardset.testing;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * A JDBC driver that lets a model name {@link CountingShards} shards by URL, so that tests going
 * through Calcite and the model count, at the shard side, what ShardSet sends.
 *
 * <p>URL: {@code jdbc:counting:<group>:<shard>}, where the group was {@link #register}ed.
 */
public final class CountingDriver implements Driver {
  private static final String PREFIX = "jdbc:counting:";
  private static final Map<String, CountingShards> GROUPS = new ConcurrentHashMap<>();

  static {
    try {
      DriverManager.registerDriver(new CountingDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Makes the shards of a group reachable as {@code jdbc:counting:<group>:<shard>}. */
  public static void register(String group, CountingShards shards) {
    GROUPS.put(group, shards);
  }

  /** Forgets a group. */
  public static void unregister(String group) {
    GROUPS.remove(group);
  }

  /** The URL of one shard of a registered group. */
  public static String url(String group, String shard) {
    return PREFIX + group + ":" + shard;
  }

  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    final String[] parts = url.substring(PREFIX.length()).split(":", 2);
    final CountingShards shards = GROUPS.get(parts[0]);
    if (shards == null || parts.length < 2) {
      throw new SQLException("no counting shards for " + url);
    }
    return shards.endpoint(parts[1]).connect();
  }

  @Override public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override public int getMajorVersion() {
    return 1;
  }

  @Override public int getMinorVersion() {
    return 0;
  }

  @Override public boolean jdbcCompliant() {
    return false;
  }

  @Override public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }
}
