package io.shardset.calcite;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.apache.calcite.sql.SqlDialects;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SQL dialects of shards, built from each database's own metadata and shared between shards
 * of the same kind; one cache per runtime ({@link ShardSetRuntime#dialects()}).
 *
 * <p>Built from metadata rather than Calcite's defaults because defaults get details wrong
 * (H2's default dialect assumes NULLs sort high; H2 sorts them low). Sharing matters because
 * per-shard SQL is rendered once per distinct dialect, not once per shard.
 */
final class Dialects {
  private final Map<List<Object>, SqlDialect> cache = new ConcurrentHashMap<>();
  /** The kind of each dialect this cache made (see {@link #kind}). */
  private final Map<SqlDialect, List<Object>> kinds = new ConcurrentHashMap<>();

  Dialects() {
  }

  /** The dialect of the database the metadata describes, shared with its kind. */
  SqlDialect of(DatabaseMetaData metaData) throws SQLException {
    final List<Object> key = settings(metaData, metaData.getDatabaseProductVersion());
    final SqlDialect cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    final List<Object> kind = withVersion(key, metaData.getDatabaseMajorVersion());
    final SqlDialect dialect = create(metaData);
    final SqlDialect previous = cache.putIfAbsent(key, dialect);
    if (previous != null) {
      return previous;
    }
    kinds.put(dialect, kind);
    return dialect;
  }

  /**
   * What a database's SQL is written by: its dialect's settings, with the product's major
   * version rather than its full version, so that shards a minor upgrade reaches one after
   * the other remain of one kind. The product's name comes first, then that major version.
   */
  List<Object> kind(DatabaseMetaData metaData) throws SQLException {
    return settings(metaData, metaData.getDatabaseMajorVersion());
  }

  /** The product's name, {@code version}, then the settings its SQL is written by. */
  private static List<Object> settings(DatabaseMetaData metaData, Object version)
      throws SQLException {
    return List.of(metaData.getDatabaseProductName(), version,
        metaData.getIdentifierQuoteString(), metaData.nullsAreSortedAtStart(),
        metaData.nullsAreSortedAtEnd(), metaData.nullsAreSortedHigh(),
        metaData.nullsAreSortedLow(), metaData.storesLowerCaseIdentifiers(),
        metaData.storesUpperCaseIdentifiers(), backslashEscapes(metaData));
  }

  /** The same settings with another version: a dialect's key becomes its kind. */
  private static List<Object> withVersion(List<Object> settings, Object version) {
    final List<Object> copy = new ArrayList<>(settings);
    copy.set(1, version);
    return List.copyOf(copy);
  }

  /** The {@link #kind} of a dialect this cache made; null for one it did not make. */
  @Nullable List<Object> kindOf(SqlDialect dialect) {
    return kinds.get(dialect);
  }

  /**
   * Calcite's dialect for the database. MariaDB is MySQL's dialect: Calcite's factory does not
   * know the name "MariaDB" and falls back to ANSI SQL, which MariaDB rejects (NULLS FIRST,
   * FETCH NEXT, CAST AS BIGINT, character set prefixes on literals).
   */
  private static SqlDialect create(DatabaseMetaData metaData) throws SQLException {
    if (isMariaDb(metaData)) {
      return new MariaDbSqlDialect(SqlDialects.createContext(metaData)
          .withDatabaseProduct(SqlDialect.DatabaseProduct.MYSQL)
          .withDataTypeSystem(MysqlSqlDialect.MYSQL_TYPE_SYSTEM), backslashEscapes(metaData));
    }
    return SqlDialectFactoryImpl.INSTANCE.create(metaData);
  }

  private static boolean isMariaDb(DatabaseMetaData metaData) throws SQLException {
    return "MariaDB".equalsIgnoreCase(metaData.getDatabaseProductName().trim());
  }

  /**
   * Whether the session reads a backslash in a string literal as an escape: MariaDB's default,
   * which ShardSet's shard sessions turn off. Asked of the session rather than assumed, so
   * that literals stay literals in a session whose mode was set otherwise.
   */
  private static boolean backslashEscapes(DatabaseMetaData metaData) throws SQLException {
    if (!isMariaDb(metaData)) {
      return false;
    }
    try (Statement s = metaData.getConnection().createStatement();
         ResultSet rs = s.executeQuery("SELECT @@SESSION.sql_mode")) {
      return !(rs.next() && String.valueOf(rs.getString(1)).contains("NO_BACKSLASH_ESCAPES"));
    }
  }
}
