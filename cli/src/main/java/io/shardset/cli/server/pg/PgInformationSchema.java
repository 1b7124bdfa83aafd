package io.shardset.cli.server.pg;

import io.shardset.calcite.prepare.StatelessSchema;

import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The SQL standard's {@code information_schema} as PostgreSQL fills it, built from the
 * session's ShardSet tables: schemata, tables, columns, table constraints and the columns of
 * keys (the primary keys), with the columns tools read.
 */
final class PgInformationSchema extends AbstractSchema implements StatelessSchema {
  private final Map<String, Table> tables = Map.of(
      "schemata", PgCatalogTable.of("catalog_name:text, schema_name:text, schema_owner:text",
          PgInformationSchema::schemata),
      "tables", PgCatalogTable.of("table_catalog:text, table_schema:text, table_name:text,"
          + " table_type:text, is_insertable_into:text", PgInformationSchema::tables),
      "columns", PgCatalogTable.of("table_catalog:text, table_schema:text, table_name:text,"
          + " column_name:text, ordinal_position:int, column_default:text, is_nullable:text,"
          + " data_type:text, character_maximum_length:int, numeric_precision:int,"
          + " numeric_scale:int, datetime_precision:int, udt_name:text, is_identity:text,"
          + " is_generated:text", PgInformationSchema::columns),
      "table_constraints", PgCatalogTable.of("constraint_catalog:text,"
          + " constraint_schema:text, constraint_name:text, table_catalog:text,"
          + " table_schema:text, table_name:text, constraint_type:text",
          PgInformationSchema::constraints),
      "key_column_usage", PgCatalogTable.of("constraint_catalog:text,"
          + " constraint_schema:text, constraint_name:text, table_catalog:text,"
          + " table_schema:text, table_name:text, column_name:text, ordinal_position:int",
          PgInformationSchema::keyColumns),
      "table_privileges", PgCatalogTable.of("grantor:text, grantee:text,"
          + " table_catalog:text, table_schema:text, table_name:text, privilege_type:text",
          PgInformationSchema::privileges));

  @Override protected Map<String, Table> getTableMap() {
    return tables;
  }

  private static List<Object[]> schemata(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Namespace namespace : model.namespaces()) {
      rows.add(new Object[] {PgCatalogSchema.DATABASE, namespace.name(),
          PgCatalogSchema.OWNER_NAME});
    }
    return rows;
  }

  private static List<Object[]> tables(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      rows.add(new Object[] {PgCatalogSchema.DATABASE, relation.schema(), relation.name(),
          "BASE TABLE", "YES"});
    }
    return rows;
  }

  private static List<Object[]> columns(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      for (PgCatalogModel.Attribute attribute : relation.attributes()) {
        final PgType type = attribute.type();
        final PgTypeCatalog.Entry entry = PgTypeCatalog.of(type.oid());
        final int modifier = type.modifier();
        final boolean numeric = type.oid() == PgBinary.NUMERIC && modifier >= 4;
        final boolean characters = (type.oid() == PgBinary.VARCHAR
            || type.oid() == PgBinary.BPCHAR) && modifier >= 4;
        rows.add(new Object[] {PgCatalogSchema.DATABASE, relation.schema(), relation.name(),
            attribute.name(), attribute.number(), null, attribute.notNull() ? "NO" : "YES",
            entry == null ? "text" : entry.sqlName(), characters ? modifier - 4 : null,
            numeric ? Integer.valueOf((modifier - 4) >> 16) : precision(type.oid()),
            numeric ? Integer.valueOf((modifier - 4) & 0xffff) : scale(type.oid()),
            datetimePrecision(type.oid()),
            entry == null ? "text" : entry.name(), "NO", "NEVER"});
      }
    }
    return rows;
  }

  /** The precision information_schema gives a number type without modifier. */
  private static @Nullable Integer precision(int oid) {
    switch (oid) {
    case PgBinary.INT2:
      return 16;
    case PgBinary.INT4:
      return 32;
    case PgBinary.INT8:
      return 64;
    case PgBinary.FLOAT4:
      return 24;
    case PgBinary.FLOAT8:
      return 53;
    default:
      return null;
    }
  }

  private static @Nullable Integer scale(int oid) {
    return oid == PgBinary.INT2 || oid == PgBinary.INT4 || oid == PgBinary.INT8 ? 0 : null;
  }

  private static @Nullable Integer datetimePrecision(int oid) {
    return oid == PgBinary.TIMESTAMP || oid == PgBinary.TIMESTAMPTZ || oid == PgBinary.TIME
        ? Integer.valueOf(6) : oid == PgBinary.DATE ? Integer.valueOf(0) : null;
  }

  private static List<Object[]> constraints(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      if (!relation.primaryKey().isEmpty()) {
        rows.add(new Object[] {PgCatalogSchema.DATABASE, relation.schema(),
            relation.primaryKeyName(), PgCatalogSchema.DATABASE, relation.schema(),
            relation.name(), "PRIMARY KEY"});
      }
    }
    return rows;
  }

  private static List<Object[]> keyColumns(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      int position = 0;
      for (int number : relation.primaryKey()) {
        rows.add(new Object[] {PgCatalogSchema.DATABASE, relation.schema(),
            relation.primaryKeyName(), PgCatalogSchema.DATABASE, relation.schema(),
            relation.name(), relation.attributes().get(number - 1).name(), ++position});
      }
    }
    return rows;
  }

  private static List<Object[]> privileges(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      for (String privilege : List.of("SELECT", "INSERT", "UPDATE", "DELETE")) {
        rows.add(new Object[] {PgCatalogSchema.OWNER_NAME, PgCatalogSchema.OWNER_NAME,
            PgCatalogSchema.DATABASE, relation.schema(), relation.name(), privilege});
      }
    }
    return rows;
  }
}
