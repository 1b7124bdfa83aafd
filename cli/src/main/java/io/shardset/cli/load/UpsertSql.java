package io.shardset.cli.load;

import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.apache.calcite.sql.dialect.MysqlSqlDialect;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;

import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The statement that inserts a row or, when a row with its primary key exists, replaces that
 * row's other columns, in each database's own syntax; its parameters are all the columns.
 */
public final class UpsertSql {
  private UpsertSql() {
  }

  /**
   * The upsert of {@code columns} into a table keyed by {@code key}.
   *
   * @param table the table's (qualified) physical name
   * @param columns the physical columns, in parameter order
   * @param key the physical primary key columns, a non-empty subset of {@code columns}
   * @throws UnsupportedOperationException for a database without a known upsert
   */
  public static String of(SqlDialect dialect, List<String> table, List<String> columns,
      List<String> key) {
    if (key.isEmpty() || !columns.containsAll(key)) {
      throw new IllegalArgumentException("key " + key + " is not a non-empty subset of "
          + columns);
    }
    final Function<List<String>, String> list = names -> names.stream()
        .map(dialect::quoteIdentifier).collect(Collectors.joining(", "));
    final String name = table.stream().map(dialect::quoteIdentifier)
        .collect(Collectors.joining("."));
    final String values = "VALUES (" + String.join(", ", Collections.nCopies(columns.size(), "?"))
        + ")";
    final String insert = "INSERT INTO " + name + " (" + list.apply(columns) + ") " + values;
    final List<String> others = columns.stream().filter(c -> !key.contains(c)).toList();
    if (dialect instanceof H2SqlDialect) {
      return "MERGE INTO " + name + " (" + list.apply(columns) + ") KEY (" + list.apply(key)
          + ") " + values;
    }
    if (dialect instanceof PostgresqlSqlDialect) {
      return insert + " ON CONFLICT (" + list.apply(key) + ") DO "
          + (others.isEmpty() ? "NOTHING" : "UPDATE SET " + others.stream()
              .map(c -> dialect.quoteIdentifier(c) + " = EXCLUDED." + dialect.quoteIdentifier(c))
              .collect(Collectors.joining(", ")));
    }
    if (dialect instanceof MysqlSqlDialect) {
      // VALUES(c) rather than an alias: MariaDB knows only this spelling.
      final List<String> assigned = others.isEmpty() ? key.subList(0, 1) : others;
      return insert + " ON DUPLICATE KEY UPDATE " + assigned.stream()
          .map(c -> dialect.quoteIdentifier(c) + " = "
              + (others.isEmpty() ? dialect.quoteIdentifier(c)
                  : "VALUES(" + dialect.quoteIdentifier(c) + ")"))
          .collect(Collectors.joining(", "));
    }
    throw new UnsupportedOperationException("no upsert known for "
        + dialect.getClass().getSimpleName() + "; load with --truncate or --append");
  }
}
