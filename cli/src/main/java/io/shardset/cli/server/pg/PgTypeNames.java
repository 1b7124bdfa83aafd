package io.shardset.cli.server.pg;

import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.Map;

/**
 * PostgreSQL's names of types that Calcite calls otherwise, as a session's root schema's
 * types, so that the casts clients write find them: pgJDBC's simple protocol sends every
 * parameter as {@code '3'::int4}, tools cast to {@code text}, {@code float8}, {@code bool}.
 */
final class PgTypeNames {
  private static final Map<String, SqlTypeName> NAMES = Map.ofEntries(
      Map.entry("int2", SqlTypeName.SMALLINT),
      Map.entry("int4", SqlTypeName.INTEGER),
      Map.entry("int8", SqlTypeName.BIGINT),
      Map.entry("float4", SqlTypeName.REAL),
      Map.entry("float8", SqlTypeName.DOUBLE),
      Map.entry("bool", SqlTypeName.BOOLEAN),
      Map.entry("text", SqlTypeName.VARCHAR),
      Map.entry("name", SqlTypeName.VARCHAR),
      Map.entry("bpchar", SqlTypeName.CHAR),
      Map.entry("bytea", SqlTypeName.VARBINARY),
      Map.entry("oid", SqlTypeName.INTEGER),
      Map.entry("timestamptz", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
      // The catalog's identifier types, which print as numbers here.
      Map.entry("regclass", SqlTypeName.INTEGER),
      Map.entry("regtype", SqlTypeName.INTEGER),
      Map.entry("regnamespace", SqlTypeName.INTEGER),
      Map.entry("regproc", SqlTypeName.INTEGER));

  private PgTypeNames() {
  }

  /** Adds the names to a connection's root schema. */
  static void addTo(SchemaPlus root) {
    for (Map.Entry<String, SqlTypeName> name : NAMES.entrySet()) {
      final RelProtoDataType type = factory -> factory.createTypeWithNullability(
          factory.createSqlType(name.getValue()), true);
      root.add(name.getKey(), type);
    }
  }
}
