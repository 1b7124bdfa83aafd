package io.shardset.cli.server.pg;

import io.shardset.calcite.prepare.StatelessSchema;

import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL's {@code pg_catalog}, read-only, built from the session's ShardSet tables: the
 * tables and columns the clients this protocol serves read (psql's {@code \dt}, {@code \dn},
 * pgJDBC's and the BI tools' metadata), with the columns they read. Tables PostgreSQL has and
 * ShardSet has nothing for (policies, publications, inheritance, extended statistics) are
 * there, empty, so that the queries that join them run.
 */
final class PgCatalogSchema extends AbstractSchema implements StatelessSchema {
  /** The user every object belongs to. */
  static final int OWNER = 10;
  static final String OWNER_NAME = "shardset";
  /** The database's name and identifier. */
  static final String DATABASE = "shardset";
  private static final int DATABASE_OID = 16_384;
  private static final int HEAP = 2;
  private static final int BTREE = 403;

  private final Map<String, Table> tables = Map.ofEntries(
      Map.entry("pg_namespace", PgCatalogTable.of(
          "oid:int, nspname:text, nspowner:int, nspacl:text", PgCatalogSchema::namespaces)),
      Map.entry("pg_class", PgCatalogTable.of("oid:int, relname:text, relnamespace:int,"
          + " reltype:int, reloftype:int, relowner:int, relam:int, relfilenode:int,"
          + " reltablespace:int, relpages:int, reltuples:real, relallvisible:int,"
          + " reltoastrelid:int, relhasindex:bool, relisshared:bool, relpersistence:text,"
          + " relkind:text, relnatts:short, relchecks:short, relhasrules:bool,"
          + " relhastriggers:bool, relhassubclass:bool, relrowsecurity:bool,"
          + " relforcerowsecurity:bool, relispopulated:bool, relreplident:text,"
          + " relispartition:bool, relacl:text, reloptions:text, relpartbound:text",
          PgCatalogSchema::classes)),
      Map.entry("pg_attribute", PgCatalogTable.of("attrelid:int, attname:text, atttypid:int,"
          + " attstattarget:int, attlen:short, attnum:short, attndims:int, atttypmod:int,"
          + " attnotnull:bool, atthasdef:bool, atthasmissing:bool, attidentity:text,"
          + " attgenerated:text, attisdropped:bool, attislocal:bool, attinhcount:int,"
          + " attcollation:int, attacl:text, attoptions:text", PgCatalogSchema::attributes)),
      Map.entry("pg_type", PgCatalogTable.of("oid:int, typname:text, typnamespace:int,"
          + " typowner:int, typlen:short, typbyval:bool, typtype:text, typcategory:text,"
          + " typisdefined:bool, typdelim:text, typrelid:int, typelem:int, typarray:int,"
          + " typnotnull:bool, typbasetype:int, typtypmod:int, typndims:int,"
          + " typcollation:int, typdefault:text", model -> types())),
      Map.entry("pg_index", PgCatalogTable.of("indexrelid:int, indrelid:int, indnatts:short,"
          + " indnkeyatts:short, indisunique:bool, indisprimary:bool, indisexclusion:bool,"
          + " indimmediate:bool, indisclustered:bool, indisvalid:bool, indcheckxmin:bool,"
          + " indisready:bool, indislive:bool, indisreplident:bool, indkey:text,"
          + " indexprs:text, indpred:text", PgCatalogSchema::indexes)),
      Map.entry("pg_constraint", PgCatalogTable.of("oid:int, conname:text, connamespace:int,"
          + " contype:text, condeferrable:bool, condeferred:bool, convalidated:bool,"
          + " conrelid:int, contypid:int, conindid:int, confrelid:int, conkey:text,"
          + " confkey:text", PgCatalogSchema::constraints)),
      Map.entry("pg_database", PgCatalogTable.of("oid:int, datname:text, datdba:int,"
          + " encoding:int, datcollate:text, datctype:text, datistemplate:bool,"
          + " datallowconn:bool, datconnlimit:int, datacl:text", model -> List.<Object[]>of(
              new Object[] {DATABASE_OID, DATABASE, OWNER, 6, "C", "C", false, true, -1,
                  null}))),
      Map.entry("pg_am", PgCatalogTable.of("oid:int, amname:text, amtype:text",
          model -> List.of(new Object[] {HEAP, "heap", "t"},
              new Object[] {BTREE, "btree", "i"}))),
      Map.entry("pg_roles", PgCatalogTable.of("oid:int, rolname:text, rolsuper:bool,"
          + " rolinherit:bool, rolcreaterole:bool, rolcreatedb:bool, rolcanlogin:bool",
          model -> List.<Object[]>of(new Object[] {OWNER, OWNER_NAME, false, true, false,
              false, true}))),
      Map.entry("pg_description",
          PgCatalogTable.empty("objoid:int, classoid:int, objsubid:int, description:text")),
      Map.entry("pg_attrdef", PgCatalogTable.empty("oid:int, adrelid:int, adnum:short,"
          + " adbin:text")),
      Map.entry("pg_collation", PgCatalogTable.empty("oid:int, collname:text,"
          + " collnamespace:int")),
      Map.entry("pg_proc", PgCatalogTable.empty("oid:int, proname:text, pronamespace:int,"
          + " prorettype:int, proargtypes:text, prokind:text")),
      Map.entry("pg_inherits", PgCatalogTable.empty("inhrelid:int, inhparent:int,"
          + " inhseqno:int, inhdetachpending:bool")),
      Map.entry("pg_policy", PgCatalogTable.empty("oid:int, polname:text, polrelid:int,"
          + " polcmd:text, polpermissive:bool, polroles:text, polqual:text,"
          + " polwithcheck:text")),
      Map.entry("pg_statistic_ext", PgCatalogTable.empty("oid:int, stxrelid:int,"
          + " stxname:text, stxnamespace:int, stxstattarget:int, stxkind:text")),
      Map.entry("pg_publication", PgCatalogTable.empty("oid:int, pubname:text,"
          + " puballtables:bool")),
      Map.entry("pg_trigger", PgCatalogTable.empty("oid:int, tgrelid:int, tgname:text,"
          + " tgenabled:text, tgisinternal:bool")),
      Map.entry("pg_tablespace", PgCatalogTable.empty("oid:int, spcname:text")),
      Map.entry("pg_enum", PgCatalogTable.empty("oid:int, enumtypid:int,"
          + " enumsortorder:real, enumlabel:text")),
      Map.entry("pg_extension", PgCatalogTable.empty("oid:int, extname:text, extowner:int,"
          + " extnamespace:int, extversion:text")),
      // A session's own values are SHOW's and current_setting's: the catalog is shared.
      Map.entry("pg_settings", PgCatalogTable.of("name:text, setting:text, unit:text,"
          + " category:text, short_desc:text, context:text, vartype:text, source:text",
          model -> DEFAULT_SETTINGS)),
      // Row counts are the shards' to estimate: none is given (Metabase shows none).
      Map.entry("pg_stat_user_tables", PgCatalogTable.of("relid:int, schemaname:text,"
          + " relname:text, n_live_tup:bigint", PgCatalogSchema::tableStatistics)));

  @Override protected Map<String, Table> getTableMap() {
    return tables;
  }

  /** The catalog's tables, by name. */
  Map<String, Table> tableMap() {
    return tables;
  }

  private static List<Object[]> namespaces(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {PgCatalogModel.PG_CATALOG, "pg_catalog", OWNER, null});
    rows.add(new Object[] {PgCatalogModel.INFORMATION_SCHEMA, "information_schema", OWNER,
        null});
    for (PgCatalogModel.Namespace namespace : model.namespaces()) {
      rows.add(new Object[] {namespace.oid(), namespace.name(), OWNER, null});
    }
    return rows;
  }

  /** pg_settings' rows: the settings a session starts with. */
  private static final List<Object[]> DEFAULT_SETTINGS = new PgSettings(OWNER_NAME).all()
      .entrySet().stream().map(setting -> new Object[] {setting.getKey(), setting.getValue(),
          null, "ShardSet", null, "user", "string", "default"})
      .toList();

  private static List<Object[]> tableStatistics(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      rows.add(new Object[] {relation.oid(), relation.schema(), relation.name(), null});
    }
    return rows;
  }

  private static List<Object[]> classes(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      final boolean indexed = !relation.primaryKey().isEmpty();
      rows.add(relationRow(relation.oid(), relation.name(), relation.namespace(), HEAP, "r",
          relation.attributes().size(), indexed));
      if (indexed) {
        rows.add(relationRow(relation.indexOid(), relation.primaryKeyName(),
            relation.namespace(), BTREE, "i", relation.primaryKey().size(), false));
      }
    }
    return rows;
  }

  private static Object[] relationRow(int oid, String name, int namespace, int am, String kind,
      int columns, boolean indexed) {
    return new Object[] {oid, name, namespace, 0, 0, OWNER, am, 0, 0, 0, -1f, 0, 0, indexed,
        false, "p", kind, (short) columns, (short) 0, false, false, false, false, false, true,
        "d", false, null, null, null};
  }

  private static List<Object[]> attributes(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      for (PgCatalogModel.Attribute attribute : relation.attributes()) {
        final PgType type = attribute.type();
        rows.add(new Object[] {relation.oid(), attribute.name(), type.oid(), -1,
            (short) type.length(), (short) attribute.number(), 0, type.modifier(),
            attribute.notNull(), false, false, "", "", false, true, 0, 0, null, null});
      }
    }
    return rows;
  }

  private static List<Object[]> types() {
    final List<Object[]> rows = new ArrayList<>();
    for (PgTypeCatalog.Entry type : PgTypeCatalog.TYPES) {
      rows.add(new Object[] {type.oid(), type.name(), PgCatalogModel.PG_CATALOG, OWNER,
          (short) type.length(), type.length() > 0 && type.length() <= 8, "b", type.category(),
          true, ",", 0, 0, 0, false, 0, -1, 0, 0, null});
    }
    return rows;
  }

  private static List<Object[]> indexes(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      if (!relation.primaryKey().isEmpty()) {
        final short count = (short) relation.primaryKey().size();
        rows.add(new Object[] {relation.indexOid(), relation.oid(), count, count, true, true,
            false, true, false, true, false, true, true, false,
            String.join(" ", relation.primaryKey().stream().map(String::valueOf).toList()),
            null, null});
      }
    }
    return rows;
  }

  private static List<Object[]> constraints(PgCatalogModel model) {
    final List<Object[]> rows = new ArrayList<>();
    for (PgCatalogModel.Relation relation : model.relations()) {
      if (!relation.primaryKey().isEmpty()) {
        rows.add(new Object[] {relation.indexOid() + 1, relation.primaryKeyName(),
            relation.namespace(), "p", false, false, true, relation.oid(), 0,
            relation.indexOid(), 0, "{" + String.join(",", relation.primaryKey().stream()
                .map(String::valueOf).toList()) + "}", null});
      }
    }
    return rows;
  }
}
