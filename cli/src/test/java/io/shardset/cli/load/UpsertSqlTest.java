package io.shardset.cli.load;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.AnsiSqlDialect;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link UpsertSql}. */
class UpsertSqlTest {
  private static final List<String> COLUMNS = List.of("ID", "NAME", "TOTAL");

  private static String upsert(SqlDialect dialect, List<String> key) {
    return UpsertSql.of(dialect, List.of("public", "orders"), COLUMNS, key);
  }

  @Test void h2Merge() {
    assertEquals("MERGE INTO \"public\".\"orders\" (\"ID\", \"NAME\", \"TOTAL\") KEY (\"ID\")"
        + " VALUES (?, ?, ?)", upsert(H2SqlDialect.DEFAULT, List.of("ID")));
  }

  @Test void postgresOnConflict() {
    assertEquals("INSERT INTO \"public\".\"orders\" (\"ID\", \"NAME\", \"TOTAL\")"
        + " VALUES (?, ?, ?) ON CONFLICT (\"ID\", \"NAME\") DO UPDATE SET"
        + " \"TOTAL\" = EXCLUDED.\"TOTAL\"",
        upsert(PostgresqlSqlDialect.DEFAULT, List.of("ID", "NAME")));
    assertEquals("INSERT INTO \"public\".\"orders\" (\"ID\", \"NAME\", \"TOTAL\")"
        + " VALUES (?, ?, ?) ON CONFLICT (\"ID\", \"NAME\", \"TOTAL\") DO NOTHING",
        upsert(PostgresqlSqlDialect.DEFAULT, COLUMNS));
  }

  @Test void mysqlOnDuplicateKey() {
    assertEquals("INSERT INTO `public`.`orders` (`ID`, `NAME`, `TOTAL`) VALUES (?, ?, ?)"
        + " ON DUPLICATE KEY UPDATE `NAME` = VALUES(`NAME`), `TOTAL` = VALUES(`TOTAL`)",
        upsert(MysqlSqlDialect.DEFAULT, List.of("ID")));
    assertEquals("INSERT INTO `public`.`orders` (`ID`, `NAME`, `TOTAL`) VALUES (?, ?, ?)"
        + " ON DUPLICATE KEY UPDATE `ID` = `ID`", upsert(MysqlSqlDialect.DEFAULT, COLUMNS));
  }

  @Test void unknownDatabasesAndBadKeys() {
    assertEquals("no upsert known for AnsiSqlDialect; load with --truncate or --append",
        assertThrows(UnsupportedOperationException.class,
            () -> upsert(AnsiSqlDialect.DEFAULT, List.of("ID"))).getMessage());
    assertEquals("key [PRICE] is not a non-empty subset of [ID, NAME, TOTAL]",
        assertThrows(IllegalArgumentException.class,
            () -> upsert(H2SqlDialect.DEFAULT, List.of("PRICE"))).getMessage());
  }
}
