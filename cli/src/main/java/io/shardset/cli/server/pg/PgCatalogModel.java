package io.shardset.cli.server.pg;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The schemas, tables, columns and primary keys of a session's root as PostgreSQL's catalogs
 * describe them: the names as a PostgreSQL client sees them (the default schema as
 * {@code public}, upper-case names in lower case, see {@link PgColumn#clientName}), with
 * object identifiers that stay the same while the model does. A table's identifier tells its
 * schema ({@link #namespaceOf}), so that the catalog's functions need no state.
 */
record PgCatalogModel(List<Namespace> namespaces, List<Relation> relations) {
  /** {@code pg_catalog}'s identifier, as in PostgreSQL. */
  static final int PG_CATALOG = 11;
  /** {@code public}'s identifier, as in PostgreSQL. */
  static final int PUBLIC = 2200;
  /** {@code information_schema}'s identifier. */
  static final int INFORMATION_SCHEMA = 13_000;
  /** The identifier of the first schema after {@code public}. */
  private static final int FIRST_NAMESPACE = 16_384;
  /** Tables of the schema numbered n (public 1) have identifiers from n times this. */
  private static final int TABLES_PER_NAMESPACE = 100_000;
  /** Schemas of the root that are no tables' of the model's. */
  private static final Set<String> NOT_LISTED = Set.of("pg_catalog", "information_schema",
      "metadata");

  /** A schema. */
  record Namespace(int oid, String name) {
  }

  /** A column. */
  record Attribute(String name, PgType type, boolean notNull, int number) {
  }

  /** A table, its columns and the numbers of its primary key's columns (from 1). */
  record Relation(int oid, int namespace, String schema, String name,
      List<Attribute> attributes, List<Integer> primaryKey) {
    /** The identifier of its primary key's index. */
    int indexOid() {
      return oid + TABLES_PER_NAMESPACE / 2;
    }

    /** The name of its primary key, as PostgreSQL names one. */
    String primaryKeyName() {
      return name + "_pkey";
    }
  }

  /** The catalog of a root schema. */
  static PgCatalogModel of(SchemaPlus root, RelDataTypeFactory typeFactory) {
    final List<Namespace> namespaces = new ArrayList<>();
    final List<Relation> relations = new ArrayList<>();
    final String publicName = PgSessionSchemas.PUBLIC;
    final SchemaPlus publicSchema = root.subSchemas().get(publicName);
    final Schema aliased = publicSchema == null ? null : CalciteSchema.from(publicSchema).schema;
    final List<String> names = new ArrayList<>(root.subSchemas().getNames(LikePattern.any()));
    names.sort(String.CASE_INSENSITIVE_ORDER);
    if (publicSchema != null) {
      names.remove(publicName);
      names.add(0, publicName);
    }
    int number = 0;
    for (String name : names) {
      final SchemaPlus schema = root.subSchemas().get(name);
      if (schema == null || NOT_LISTED.contains(name.toLowerCase(Locale.ROOT))
          || !name.equals(publicName) && CalciteSchema.from(schema).schema == aliased) {
        continue;
      }
      number++;
      final int oid = name.equals(publicName) ? PUBLIC : FIRST_NAMESPACE + number;
      final String clientName = PgColumn.clientName(name);
      namespaces.add(new Namespace(oid, clientName));
      final List<String> tables = new ArrayList<>(schema.tables().getNames(LikePattern.any()));
      tables.sort(String.CASE_INSENSITIVE_ORDER);
      int index = 0;
      for (String table : tables) {
        final Table found = schema.tables().get(table);
        if (found != null) {
          relations.add(relation(number * TABLES_PER_NAMESPACE + ++index, oid, clientName,
              table, found, typeFactory));
        }
      }
    }
    return new PgCatalogModel(List.copyOf(namespaces), List.copyOf(relations));
  }

  private static Relation relation(int oid, int namespace, String schema, String name,
      Table table, RelDataTypeFactory typeFactory) {
    final RelDataType rowType = table.getRowType(typeFactory);
    final List<Attribute> attributes = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      final RelDataType type = field.getType();
      final SqlTypeName typeName = type.getSqlTypeName();
      attributes.add(new Attribute(PgColumn.clientName(field.getName()),
          PgType.of(typeName.getJdbcOrdinal(), typeName.getName(),
              type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? 0
                  : type.getPrecision(),
              type.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? 0 : type.getScale()),
          !type.isNullable(), field.getIndex() + 1));
    }
    final List<Integer> primaryKey = new ArrayList<>();
    final @Nullable ShardTable sharded = table instanceof ShardTable shardTable ? shardTable
        : null;
    if (sharded != null) {
      for (int column : sharded.layout().primaryKeyColumns()) {
        primaryKey.add(column + 1);
      }
    }
    return new Relation(oid, namespace, schema, PgColumn.clientName(name),
        List.copyOf(attributes), List.copyOf(primaryKey));
  }

  /** PostgreSQL's identifiers of its catalog's tables, which clients name as
   * {@code 'pg_class'::regclass}. */
  private static final Map<String, Integer> CATALOG_TABLES = Map.of(
      "pg_class", 1259, "pg_namespace", 2615, "pg_proc", 1255, "pg_type", 1247,
      "pg_attribute", 1249, "pg_constraint", 2606, "pg_database", 1262, "pg_index", 2610);

  /** The identifier of a catalog table a client names, 0 for another name. */
  static int catalogTableOid(String name) {
    final String table = name.trim().toLowerCase(Locale.ROOT);
    return CATALOG_TABLES.getOrDefault(table.startsWith("pg_catalog.")
        ? table.substring("pg_catalog.".length()) : table, 0);
  }

  /** The schema a table's identifier belongs to: {@link #PUBLIC}, another's, or 0. */
  static int namespaceOf(long tableOid) {
    final long number = tableOid / TABLES_PER_NAMESPACE;
    return number == 1 ? PUBLIC : number > 1 ? FIRST_NAMESPACE + (int) number : 0;
  }
}
