package io.shardset.calcite.remote;


import io.shardset.calcite.jdbc.ShardSetVersion;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;

/**
 * The SQL a federating Calcite sends to a ShardSet server through its JDBC adapter: Calcite's
 * own, which ShardSet parses as it is, with NULLs sorted as the server sorts them.
 *
 * <p>Window functions are computed by the federating engine, not sent: Calcite 1.42's JDBC
 * adapter cannot plan a window function over a JDBC table whose dialect supports them
 * (CALCITE-7616: {@code ProjectToLogicalProjectAndWindowRule} turns the JDBC project into a
 * LogicalWindow of the JDBC convention, and the planner fails with "LogicalWindow ... does not
 * implement the required interface 'JdbcRel'"), whatever the database.
 */
public class ShardSetSqlDialect extends CalciteSqlDialect {
  /** The context: Calcite's SQL and the server's NULL ordering. */
  public static final SqlDialect.Context DEFAULT_CONTEXT = CalciteSqlDialect.DEFAULT_CONTEXT
      .withDatabaseProductName(ShardSetVersion.PRODUCT_NAME)
      .withNullCollation(ShardSetRemoteDriver.SERVER_NULL_COLLATION);

  /** The dialect of a ShardSet server. */
  public static final ShardSetSqlDialect DEFAULT = new ShardSetSqlDialect(DEFAULT_CONTEXT);

  /** Creates a dialect. */
  public ShardSetSqlDialect(Context context) {
    super(context);
  }

  /** See the class comment: CALCITE-7616. */
  @Override public boolean supportsWindowFunctions() {
    return false;
  }
}
