package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Answers to catalog queries that PostgreSQL's clients send and Calcite cannot run as they
 * are written (arrays, {@code = any}, {@code regclass} arithmetic): psql's {@code \d TABLE}
 * asks for a table's indexes with {@code pg_get_indexdef}, which needs the catalog, and for
 * its row-level policies, extended statistics, publications and inheritance, which ShardSet
 * tables never have. Each answer is recognized by phrases of the query that no other has.
 */
final class PgCannedQueries {
  /** An answer: its columns, all text, and its rows (null for NULL). */
  record Answer(List<String> columns, List<List<String>> rows) {
  }

  /** The tables whose queries have no rows on ShardSet. */
  private static final List<String> ALWAYS_EMPTY = List.of("pg_catalog.pg_policy",
      "pg_catalog.pg_statistic_ext", "pg_catalog.pg_publication", "pg_catalog.pg_inherits");
  /** The table psql's index query asks about. */
  private static final Pattern TABLE_OID = Pattern.compile("WHERE c\\.oid = '(\\d+)'");

  private PgCannedQueries() {
  }

  /** The answer to a query, if it is one of the canned ones. */
  static Optional<Answer> answer(String sql, Supplier<PgCatalogModel> model) {
    for (String table : ALWAYS_EMPTY) {
      if (sql.contains(table)) {
        return Optional.of(new Answer(List.of(), List.of()));
      }
    }
    if (sql.contains("information_schema._pg_expandarray(i.indkey)")
        && sql.contains("i.indisprimary")) {
      return Optional.of(primaryKeys(equalsLiteral(sql, "n.nspname"),
          equalsLiteral(sql, "ct.relname"), model.get()));
    }
    if (sql.contains("pg_catalog.pg_get_indexdef(i.indexrelid, 0, true)")
        && sql.contains("FROM pg_catalog.pg_class c, pg_catalog.pg_class c2,"
            + " pg_catalog.pg_index i")) {
      final Matcher oid = TABLE_OID.matcher(sql);
      return Optional.of(indexes(oid.find() ? Integer.parseInt(oid.group(1)) : -1,
          model.get()));
    }
    return Optional.empty();
  }

  /** The string a query compares a column with ({@code n.nspname = 'public'}), or null. */
  private static @Nullable String equalsLiteral(String sql, String column) {
    final Matcher matcher = Pattern.compile(Pattern.quote(column) + " = '((?:[^']|'')*)'")
        .matcher(sql);
    return matcher.find() ? matcher.group(1).replace("''", "'") : null;
  }

  /** pgJDBC's {@code getPrimaryKeys}: a table's primary key's columns in key order. */
  private static Answer primaryKeys(@Nullable String schema, @Nullable String table,
      PgCatalogModel model) {
    final List<List<String>> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      if ((schema == null || schema.equals(relation.schema()))
          && (table == null || table.equals(relation.name()))) {
        int sequence = 0;
        for (int number : relation.primaryKey()) {
          rows.add(Arrays.asList(null, relation.schema(), relation.name(),
              relation.attributes().get(number - 1).name(), Integer.toString(++sequence),
              relation.primaryKeyName()));
        }
      }
    }
    return new Answer(List.of("table_cat", "table_schem", "table_name", "column_name",
        "key_seq", "pk_name"), rows);
  }

  /** psql's {@code \d}'s indexes of a table: its primary key's. */
  private static Answer indexes(int tableOid, PgCatalogModel model) {
    final List<List<String>> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      if (relation.oid() == tableOid && !relation.primaryKey().isEmpty()) {
        final String columns = relation.primaryKey().stream()
            .map(number -> relation.attributes().get(number - 1).name())
            .map(name -> PgCatalogFunctions.quoteIdent(name))
            .collect(Collectors.joining(", "));
        rows.add(List.of(relation.primaryKeyName(), "t", "t", "f", "t",
            String.format(Locale.ROOT, "CREATE UNIQUE INDEX %s ON %s.%s USING btree (%s)",
                relation.primaryKeyName(), relation.schema(), relation.name(), columns),
            "PRIMARY KEY (" + columns + ")", "p", "f", "f", "f", "0"));
      }
    }
    return new Answer(List.of("relname", "indisprimary", "indisunique", "indisclustered",
        "indisvalid", "pg_get_indexdef", "pg_get_constraintdef", "contype", "condeferrable",
        "condeferred", "indisreplident", "reltablespace"), rows);
  }
}
