package io.shardset.cli.server.pg;

import io.shardset.calcite.relations.StatementTables;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers to the metadata queries BI tools send on connect that Calcite cannot run as written,
 * computed from the catalog ({@link PgCannedQueries} asks here first). Metabase's PostgreSQL
 * driver asks for the tables the user may read and change (reserved words as column aliases,
 * {@code has_any_column_privilege}), for every column with its type, key and nullability
 * ({@code FORMAT('%I.%I', ...)::regclass}) and for foreign keys ({@code = ANY(c.conkey)});
 * Grafana's asks for the tables and a table's columns in the search path
 * ({@code generate_series} over {@code string_to_array(current_setting('search_path'))},
 * {@code parse_ident(...)[1]}). Each is recognized by phrases no other query has. The
 * parameters of Metabase's queries (its schemas) are not read: every schema's tables are
 * answered, which is what it asks for on ShardSet, whose schemas it lists first.
 */
final class PgBiToolQueries {
  /** The schemas whose tables the tools' queries leave out. */
  private static final Set<String> SYSTEM = Set.of("pg_catalog", "information_schema");
  /** ShardSet's schema of statement tables, as PostgreSQL's clients name it. */
  private static final String STATEMENT_TABLES =
      StatementTables.SCHEMA.toLowerCase(Locale.ROOT);
  /** The schema of the default search path, where a name needs no schema. */
  private static final String SEARCH_PATH = PgSessionSchemas.PUBLIC;
  private static final Pattern PARSE_IDENT = Pattern.compile("parse_ident\\('((?:[^']|'')*)'\\)");

  private PgBiToolQueries() {
  }

  static Optional<PgCannedQueries.Answer> answer(String sql, Supplier<PgCatalogModel> model,
      BooleanSupplier writable) {
    if (sql.contains("has_any_column_privilege(current_user")
        && sql.contains("from table_privileges t")) {
      return Optional.of(metabasePrivileges(model.get(), writable.getAsBoolean()));
    }
    if (sql.contains("AS \"database-is-auto-increment\"")) {
      return Optional.of(metabaseFields(model.get()));
    }
    if (sql.contains("AS \"fk-table-schema\"")) {
      // ShardSet's tables declare no foreign keys.
      return Optional.of(PgCannedQueries.Answer.text(List.of("fk-table-schema",
          "fk-table-name", "fk-column-name", "pk-table-schema", "pk-table-name",
          "pk-column-name"), List.of()));
    }
    if (sql.contains("FROM information_schema.tables") && sql.contains("generate_series(")) {
      return Optional.of(grafanaTables(model.get()));
    }
    if (sql.contains("FROM information_schema.columns") && sql.contains("parse_ident(")) {
      final Matcher ident = PARSE_IDENT.matcher(sql);
      return Optional.of(grafanaColumns(model.get(),
          ident.find() ? ident.group(1).replace("''", "'") : ""));
    }
    return Optional.empty();
  }

  /** The tables outside PostgreSQL's own schemas. */
  private static List<PgCatalogModel.Relation> tables(PgCatalogModel model) {
    return model.relations().stream().filter(r -> !SYSTEM.contains(r.schema()))
        .sorted(Comparator.comparing(PgCatalogModel.Relation::schema)
            .thenComparing(PgCatalogModel.Relation::name))
        .toList();
  }

  /** Metabase's table privileges of the current user: reading always, changing if it may. */
  private static PgCannedQueries.Answer metabasePrivileges(PgCatalogModel model,
      boolean writable) {
    final List<List<String>> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : tables(model)) {
      // ShardSet's own tables (statements, shards reached) are read-only.
      final String changes = bool(writable && !relation.schema().equals(STATEMENT_TABLES));
      rows.add(Arrays.asList(null, relation.schema(), relation.name(), changes, "t", changes,
          changes));
    }
    return new PgCannedQueries.Answer(List.of("role", "schema", "table", "update", "select",
        "insert", "delete"), List.of(PgType.TEXT, PgType.TEXT, PgType.TEXT, PgType.BOOL,
        PgType.BOOL, PgType.BOOL, PgType.BOOL), rows);
  }

  /** Metabase's fields: every column of every table, its type's name, key and nullability. */
  private static PgCannedQueries.Answer metabaseFields(PgCatalogModel model) {
    final List<List<String>> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : tables(model)) {
      for (PgCatalogModel.Attribute attribute : relation.attributes()) {
        final PgTypeCatalog.Entry type = PgTypeCatalog.of(attribute.type().oid());
        rows.add(Arrays.asList(attribute.name(), type == null ? "text" : type.name(),
            Integer.toString(attribute.number() - 1), relation.schema(), relation.name(),
            bool(relation.primaryKey().contains(attribute.number())), null,
            bool(attribute.notNull()), "f"));
      }
    }
    return new PgCannedQueries.Answer(List.of("name", "database-type", "database-position",
        "table-schema", "table-name", "pk?", "field-comment", "database-required",
        "database-is-auto-increment"), List.of(PgType.TEXT, PgType.TEXT, PgType.INT4,
        PgType.TEXT, PgType.TEXT, PgType.BOOL, PgType.TEXT, PgType.BOOL, PgType.BOOL), rows);
  }

  /** Grafana's tables: those of the search path by name first, then the others with their
   * schema, each part quoted as {@code quote_ident} quotes it. */
  private static PgCannedQueries.Answer grafanaTables(PgCatalogModel model) {
    final List<String> inPath = new ArrayList<>();
    final List<String> others = new ArrayList<>();
    for (PgCatalogModel.Relation relation : tables(model)) {
      if (relation.schema().equals(SEARCH_PATH)) {
        inPath.add(PgCatalogFunctions.quoteIdent(relation.name()));
      } else {
        others.add(PgCatalogFunctions.quoteIdent(relation.schema()) + "."
            + PgCatalogFunctions.quoteIdent(relation.name()));
      }
    }
    inPath.sort(Comparator.naturalOrder());
    others.sort(Comparator.naturalOrder());
    final List<List<String>> rows = new ArrayList<>();
    inPath.forEach(name -> rows.add(List.of(name)));
    others.forEach(name -> rows.add(List.of(name)));
    return PgCannedQueries.Answer.text(List.of("table"), rows);
  }

  /** Grafana's columns of the table {@code ident} names ({@code orders} in the search path,
   * or {@code schema.orders}): each quoted, with information_schema's type name. */
  private static PgCannedQueries.Answer grafanaColumns(PgCatalogModel model, String ident) {
    final List<String> parts = identParts(ident);
    final String schema = parts.size() == 2 ? parts.get(0) : SEARCH_PATH;
    final String table = parts.isEmpty() ? "" : parts.get(parts.size() - 1);
    final List<List<String>> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : tables(model)) {
      if (relation.schema().equals(schema) && relation.name().equals(table)) {
        for (PgCatalogModel.Attribute attribute : relation.attributes()) {
          final PgTypeCatalog.Entry type = PgTypeCatalog.of(attribute.type().oid());
          rows.add(List.of(PgCatalogFunctions.quoteIdent(attribute.name()),
              type == null ? "text" : type.sqlName()));
        }
      }
    }
    return PgCannedQueries.Answer.text(List.of("column", "type"), rows);
  }

  /** The names of {@code parse_ident}: split at dots outside quotes, unquoted ones in lower
   * case. */
  private static List<String> identParts(String ident) {
    final List<String> parts = new ArrayList<>();
    final StringBuilder part = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < ident.length(); i++) {
      final char c = ident.charAt(i);
      if (c == '"') {
        if (quoted && i + 1 < ident.length() && ident.charAt(i + 1) == '"') {
          part.append('"');
          i++;
        } else {
          quoted = !quoted;
          wasQuoted = true;
        }
      } else if (c == '.' && !quoted) {
        parts.add(finish(part, wasQuoted));
        wasQuoted = false;
      } else {
        part.append(c);
      }
    }
    parts.add(finish(part, wasQuoted));
    return parts;
  }

  private static String finish(StringBuilder part, boolean quoted) {
    final String name = part.toString().trim();
    part.setLength(0);
    return quoted ? name : name.toLowerCase(Locale.ROOT);
  }

  private static String bool(boolean value) {
    return value ? "t" : "f";
  }
}
