package io.shardset.calcite;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.apache.calcite.sql.SqlDialects;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * SQL dialects of shards, built from each database's own metadata and shared between shards
 * of the same kind.
 *
 * <p>Built from metadata rather than Calcite's defaults because defaults get details wrong
 * (H2's default dialect assumes NULLs sort high; H2 sorts them low). Sharing matters because
 * per-shard SQL is rendered once per distinct dialect, not once per shard.
 */
final class Dialects {
  private static final Map<List<Object>, SqlDialect> CACHE = new ConcurrentHashMap<>();

  private Dialects() {
  }

  static SqlDialect of(DatabaseMetaData metaData) throws SQLException {
    final List<Object> key = List.of(metaData.getDatabaseProductName(),
        metaData.getDatabaseProductVersion(), metaData.getIdentifierQuoteString(),
        metaData.nullsAreSortedAtStart(), metaData.nullsAreSortedAtEnd(),
        metaData.nullsAreSortedHigh(), metaData.nullsAreSortedLow(),
        metaData.storesLowerCaseIdentifiers(), metaData.storesUpperCaseIdentifiers());
    final SqlDialect cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    final SqlDialect dialect = create(metaData);
    final SqlDialect previous = CACHE.putIfAbsent(key, dialect);
    return previous == null ? dialect : previous;
  }

  /**
   * Calcite's dialect for the database. MariaDB is MySQL's dialect: Calcite's factory does not
   * know the name "MariaDB" and falls back to ANSI SQL, which MariaDB rejects (NULLS FIRST,
   * FETCH NEXT, CAST AS BIGINT, character set prefixes on literals).
   */
  private static SqlDialect create(DatabaseMetaData metaData) throws SQLException {
    if ("MariaDB".equalsIgnoreCase(metaData.getDatabaseProductName().trim())) {
      return new MysqlSqlDialect(SqlDialects.createContext(metaData)
          .withDatabaseProduct(SqlDialect.DatabaseProduct.MYSQL)
          .withDataTypeSystem(MysqlSqlDialect.MYSQL_TYPE_SYSTEM));
    }
    return SqlDialectFactoryImpl.INSTANCE.create(metaData);
  }
}
