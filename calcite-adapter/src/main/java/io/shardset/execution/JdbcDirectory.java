package io.shardset.execution;

import io.shardset.routing.Directory;

import com.google.common.base.Ticker;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A lookup table's directory kept in a database table of (key, shard name) rows, read through
 * a bounded cache whose entries expire.
 *
 * <p>Only found entries are cached: a key added to the directory is found at once, while a
 * changed entry is seen once its cached copy expires or is
 * {@linkplain #invalidate invalidated}. A model's directories are shared by all its connections
 * (see {@link ModelResources#directory}), like its shard pools, so that invalidating through
 * one connection's table reaches every connection's queries.
 */
public final class JdbcDirectory implements Directory {
  private final Settings settings;
  private final ShardPools pools;
  private final Cache<Object, String> cache;
  private volatile String lookupSql;

  /**
   * Where the directory is and how long its entries are cached.
   *
   * @param connection how to reach the directory database
   * @param table the directory table, matched exactly, else ignoring case
   * @param keyColumn the key column, matched likewise
   * @param shardColumn the shard name column, matched likewise
   * @param cacheSize the most entries cached
   * @param cacheSeconds how long a cached entry is trusted; 0 disables the cache
   */
  public record Settings(ShardConnectionSettings connection, String table, String keyColumn,
      String shardColumn, int cacheSize, int cacheSeconds) {
    public Settings {
      Objects.requireNonNull(connection, "connection");
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(keyColumn, "keyColumn");
      Objects.requireNonNull(shardColumn, "shardColumn");
    }
  }

  /** A directory table or column that does not exist, named by the setting at fault. */
  public static final class MissingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String setting;

    MissingException(String setting, String message) {
      super(message);
      this.setting = setting;
    }

    /** The setting naming what is missing: {@code table}, {@code keyColumn} or
     * {@code shardColumn}. */
    public String setting() {
      return setting;
    }
  }

  JdbcDirectory(Settings settings, ShardPools pools, Ticker ticker) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.pools = Objects.requireNonNull(pools, "pools");
    this.cache = CacheBuilder.newBuilder()
        .maximumSize(settings.cacheSeconds() == 0 ? 0 : settings.cacheSize())
        .expireAfterWrite(settings.cacheSeconds(), TimeUnit.SECONDS)
        .ticker(ticker)
        .build();
  }

  /**
   * Checks that the directory table and its columns exist, and prepares the lookup.
   *
   * @throws MissingException naming the table or column that is missing
   * @throws ShardException if the directory database cannot be read
   */
  public void verify() {
    lookupSql();
  }

  @Override public Optional<String> shardOf(Comparable<?> key) {
    Objects.requireNonNull(key, "key");
    String cached = cache.getIfPresent(key);
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<String> shard = read(key);
    shard.ifPresent(name -> cache.put(key, name));
    return shard;
  }

  @Override public void invalidate(Comparable<?> key) {
    cache.invalidate(key);
  }

  @Override public void invalidateAll() {
    cache.invalidateAll();
  }

  private Optional<String> read(Object key) {
    ShardEndpoint endpoint = pools.endpoint(settings.connection());
    try (Connection connection = endpoint.connect();
         PreparedStatement statement = connection.prepareStatement(lookupSql())) {
      statement.setObject(1, key);
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        String shard = rs.getString(1);
        if (rs.next()) {
          throw new IllegalStateException("the directory table " + settings.table()
              + " has several entries for key " + key);
        }
        return Optional.ofNullable(shard == null ? null : shard.trim());
      }
    } catch (SQLException e) {
      throw ShardException.of(endpoint, e);
    }
  }

  private String lookupSql() {
    String sql = lookupSql;
    if (sql == null) {
      sql = resolveLookupSql();
      lookupSql = sql;
    }
    return sql;
  }

  /** The lookup query, with the table and column names as the directory database spells
   * them. */
  private String resolveLookupSql() {
    ShardEndpoint endpoint = pools.endpoint(settings.connection());
    try (Connection connection = endpoint.connect()) {
      DatabaseMetaData metadata = connection.getMetaData();
      String[] table = table(metadata);
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = metadata.getColumns(table[0], table[1], table[2], null)) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME"));
        }
      }
      String quote = metadata.getIdentifierQuoteString().trim();
      String key = quote + column(columns, "keyColumn", settings.keyColumn()) + quote;
      String shard = quote + column(columns, "shardColumn", settings.shardColumn()) + quote;
      String from = (table[1] == null ? "" : quote + table[1] + quote + ".")
          + quote + table[2] + quote;
      return "SELECT " + shard + " FROM " + from + " WHERE " + key + " = ?";
    } catch (SQLException e) {
      throw ShardException.of(endpoint, e);
    }
  }

  /** The catalog, schema and name of the directory table. */
  private String[] table(DatabaseMetaData metadata) throws SQLException {
    List<String[]> exact = new ArrayList<>();
    List<String[]> ignoringCase = new ArrayList<>();
    try (ResultSet rs = metadata.getTables(null, null, null,
        new String[] {"TABLE", "BASE TABLE"})) {
      while (rs.next()) {
        String name = rs.getString("TABLE_NAME");
        String[] found = {rs.getString("TABLE_CAT"), rs.getString("TABLE_SCHEM"), name};
        if (name.equals(settings.table())) {
          exact.add(found);
        } else if (name.equalsIgnoreCase(settings.table())) {
          ignoringCase.add(found);
        }
      }
    }
    List<String[]> matches = exact.isEmpty() ? ignoringCase : exact;
    if (matches.size() != 1) {
      throw new MissingException("table", matches.isEmpty()
          ? "table '" + settings.table() + "' does not exist in the directory database"
          : "table '" + settings.table() + "' exists in several schemas of the directory"
              + " database");
    }
    return matches.get(0);
  }

  private static String column(List<String> columns, String setting, String name) {
    if (columns.contains(name)) {
      return name;
    }
    List<String> matches = columns.stream()
        .filter(c -> c.toUpperCase(Locale.ROOT).equals(name.toUpperCase(Locale.ROOT)))
        .toList();
    if (matches.size() != 1) {
      throw new MissingException(setting, "column '" + name + "' does not exist in the"
          + " directory table; its columns are " + String.join(", ", columns));
    }
    return matches.get(0);
  }
}
