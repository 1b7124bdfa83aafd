package io.shardset.calcite;

import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's default type system, with timestamps of up to microsecond precision.
 *
 * <p>Calcite's default caps TIMESTAMP at precision 3, so a literal such as
 * {@code TIMESTAMP '2000-01-01 12:00:00.000001'} is rounded to milliseconds before it is
 * pushed, and finds another row. PostgreSQL, MariaDB and H2 store microseconds.
 * {@code jdbc:shardset:} connections use this type system unless told otherwise;
 * {@code jdbc:calcite:} connections name it with
 * {@code typeSystem=io.shardset.calcite.ShardTypeSystem#INSTANCE}.
 */
public final class ShardTypeSystem extends RelDataTypeSystemImpl {
  /** The finest timestamp precision, in fractional digits of a second. */
  public static final int MAX_TIMESTAMP_PRECISION = 6;
  public static final RelDataTypeSystem INSTANCE = new ShardTypeSystem();

  private ShardTypeSystem() {
  }

  @Override public int getMaxPrecision(SqlTypeName typeName) {
    return typeName == SqlTypeName.TIMESTAMP
        ? MAX_TIMESTAMP_PRECISION : super.getMaxPrecision(typeName);
  }
}
