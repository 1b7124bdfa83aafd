package io.shardset.calcite.remote;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactory;

import java.sql.DatabaseMetaData;

/**
 * The dialect factory a Calcite model names in a JDBC schema over a ShardSet server
 * ({@code "sqlDialectFactory": "io.shardset.calcite.remote.ShardSetSqlDialectFactory"}): it
 * answers {@link ShardSetSqlDialect} whatever the driver reports. Calcite's own factory picks
 * a dialect by product name, and knows neither "ShardSet" ({@code jdbc:shardset:remote:}) nor
 * "Avatica" (Avatica's remote driver, which answers for itself): its ANSI fallback sends
 * window functions, which Calcite 1.42 then cannot plan (see {@link ShardSetSqlDialect}).
 */
public class ShardSetSqlDialectFactory implements SqlDialectFactory {
  /** The factory; Calcite may also create its own with the public constructor. */
  public static final ShardSetSqlDialectFactory INSTANCE = new ShardSetSqlDialectFactory();

  @Override public SqlDialect create(DatabaseMetaData databaseMetaData) {
    return ShardSetSqlDialect.DEFAULT;
  }
}
