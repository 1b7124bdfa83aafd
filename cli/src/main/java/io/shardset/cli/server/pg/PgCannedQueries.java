package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Answers to catalog queries that PostgreSQL's clients send and Calcite cannot run as they
 * are written (arrays, {@code = any}, {@code regclass} arithmetic): psql's {@code \d TABLE}
 * asks for a table's indexes with {@code pg_get_indexdef}, which needs the catalog, and for
 * its row-level policies, extended statistics, publications and inheritance, which ShardSet
 * tables never have; SQLAlchemy's reflection asks for a table's columns (with a column named
 * {@code DEFAULT} and JSON functions), its primary key ({@code unnest} of an index's key
 * array), its enum types and domains. Each answer is recognized by phrases of the query that
 * no other has.
 */
final class PgCannedQueries {
  /** An answer: its columns, their types, and its rows as text (null for NULL). */
  record Answer(List<String> columns, List<PgType> types, List<List<String>> rows) {
    Answer {
      columns = List.copyOf(columns);
      types = List.copyOf(types);
      rows = List.copyOf(rows);
    }

    /** An answer whose columns are all text. */
    static Answer text(List<String> columns, List<List<String>> rows) {
      return new Answer(columns, Collections.nCopies(columns.size(), PgType.TEXT), rows);
    }
  }

  /** The tables whose queries have no rows on ShardSet. */
  private static final List<String> ALWAYS_EMPTY = List.of("pg_catalog.pg_policy",
      "pg_catalog.pg_statistic_ext", "pg_catalog.pg_publication", "pg_catalog.pg_inherits");
  /** The table psql's index query asks about. */
  private static final Pattern TABLE_OID = Pattern.compile("WHERE c\\.oid = '(\\d+)'");
  /** The table SQLAlchemy's column query asks about. */
  private static final Pattern ATTRELID = Pattern.compile("WHERE a\\.attrelid = (\\d+)");
  /** The table SQLAlchemy's primary-key query asks about. */
  private static final Pattern INDRELID = Pattern.compile("ix\\.indrelid = (\\d+)");

  private PgCannedQueries() {
  }

  /**
   * The answer to a query, if it is one of the canned ones.
   *
   * @param model the session's catalog, made only if a canned query asks for it
   * @param writable whether the session's user may change rows, for the privileges asked of it
   */
  static Optional<Answer> answer(String sql, Supplier<PgCatalogModel> model,
      BooleanSupplier writable) {
    for (String table : ALWAYS_EMPTY) {
      if (sql.contains(table)) {
        return Optional.of(Answer.text(List.of(), List.of()));
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
    if (sql.contains("pg_catalog.pg_get_expr(d.adbin, d.adrelid)")
        && sql.contains("identity_options") && sql.contains("FROM pg_catalog.pg_attribute a")) {
      return Optional.of(sqlAlchemyColumns(number(sql, ATTRELID), model.get()));
    }
    if (sql.contains("generate_subscripts(ix.indkey, 1)")) {
      return Optional.of(sqlAlchemyPrimaryKey(number(sql, INDRELID), model.get()));
    }
    final Optional<Answer> tool = PgBiToolQueries.answer(sql, model, writable);
    if (tool.isPresent()) {
      return tool;
    }
    if (sql.contains("pg_catalog.pg_type_is_visible(t.oid)")
        && sql.contains("WHERE t.typtype = 'e'")) {
      // SQLAlchemy's enum types: ShardSet's tables have none.
      return Optional.of(Answer.text(List.of("name", "visible", "schema", "label"),
          List.of()));
    }
    if (sql.contains("pg_catalog.pg_type_is_visible(t.oid)")
        && sql.contains("WHERE t.typtype = 'd'")) {
      // SQLAlchemy's domains: none either.
      return Optional.of(Answer.text(List.of("name", "attype", "nullable", "default",
          "visible", "schema"), List.of()));
    }
    return Optional.empty();
  }

  /** The number a query compares a column with, or -1. */
  private static int number(String sql, Pattern pattern) {
    final Matcher matcher = pattern.matcher(sql);
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
  }

  /** SQLAlchemy's {@code get_columns}: a table's columns, their types and nullability. */
  private static Answer sqlAlchemyColumns(int tableOid, PgCatalogModel model) {
    final List<List<String>> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      if (relation.oid() == tableOid) {
        for (PgCatalogModel.Attribute attribute : relation.attributes()) {
          rows.add(Arrays.asList(attribute.name(),
              PgCatalogFunctions.formatType(attribute.type().oid(),
                  attribute.type().modifier()),
              null, attribute.notNull() ? "t" : "f", Integer.toString(tableOid), null, "",
              null));
        }
      }
    }
    return new Answer(List.of("attname", "format_type", "default", "attnotnull",
        "table_oid", "comment", "generated", "identity_options"),
        List.of(PgType.TEXT, PgType.TEXT, PgType.TEXT, PgType.BOOL, PgType.INT4, PgType.TEXT,
            PgType.TEXT, PgType.TEXT), rows);
  }

  /** SQLAlchemy's {@code get_pk_constraint}: a table's primary key's columns in key order. */
  private static Answer sqlAlchemyPrimaryKey(int tableOid, PgCatalogModel model) {
    final List<List<String>> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      if (relation.oid() == tableOid) {
        for (int number : relation.primaryKey()) {
          rows.add(List.of(relation.attributes().get(number - 1).name()));
        }
      }
    }
    return Answer.text(List.of("attname"), rows);
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
    return Answer.text(List.of("table_cat", "table_schem", "table_name", "column_name",
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
    return Answer.text(List.of("relname", "indisprimary", "indisunique", "indisclustered",
        "indisvalid", "pg_get_indexdef", "pg_get_constraintdef", "contype", "condeferrable",
        "condeferred", "indisreplident", "reltablespace"), rows);
  }
}
