package io.shardset.cli.server.pg;

import io.shardset.calcite.ShardTypeSystem;

import org.apache.calcite.rel.type.DelegatingTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The type system of PostgreSQL sessions: ShardSet's, with two of PostgreSQL's rules. A CASE
 * or UNION of strings of different lengths is {@code varchar}, not a {@code char} padded with
 * blanks (psql's {@code \dt} shows {@code table}, not {@code table} and twelve blanks), and a
 * timestamp without a precision keeps microseconds ({@code ::timestamp} casts keep what
 * PostgreSQL's keep).
 */
public final class PgTypeSystem extends DelegatingTypeSystem {
  /** The instance a connection's {@code typeSystem} property names. */
  public static final RelDataTypeSystem INSTANCE = new PgTypeSystem();

  private PgTypeSystem() {
    super(ShardTypeSystem.INSTANCE);
  }

  @Override public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  @Override public int getDefaultPrecision(SqlTypeName typeName) {
    return typeName == SqlTypeName.TIMESTAMP ? ShardTypeSystem.MAX_TIMESTAMP_PRECISION
        : super.getDefaultPrecision(typeName);
  }
}
