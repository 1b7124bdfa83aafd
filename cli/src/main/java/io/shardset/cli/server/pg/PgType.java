package io.shardset.cli.server.pg;

import java.sql.Types;
import java.util.Locale;

/**
 * The PostgreSQL type a result column is described as in a RowDescription: its type's OID,
 * length ({@code pg_type.typlen}, -1 for variable) and modifier ({@code atttypmod}: a length
 * or precision and scale, -1 for none), from the column's JDBC type, type name, precision and
 * scale. Clients decode values and size their columns by them (pgJDBC picks its Java types by
 * OID). A type without a PostgreSQL match is described as {@code text}, which is how its
 * values are written.
 *
 * @param oid the type's OID in {@code pg_type}
 * @param length the type's length, -1 for a variable one
 * @param modifier the column's type modifier, -1 for none
 */
public record PgType(int oid, int length, int modifier) {
  /** The longest {@code varchar(n)} PostgreSQL allows; a longer JDBC bound is no bound. */
  static final int MAX_VARCHAR = 10_485_760;
  /** The most digits of a {@code numeric(p, s)}. */
  static final int MAX_NUMERIC = 1000;

  static final PgType TEXT = new PgType(25, -1, -1);
  static final PgType BOOL = new PgType(16, 1, -1);
  static final PgType INT4 = new PgType(23, 4, -1);

  /**
   * The type of a column.
   *
   * @param jdbcType its {@link Types} code
   * @param typeName its type's name as the driver reports it (it tells {@code timestamptz} and
   *     {@code uuid} apart from what their JDBC codes share)
   * @param precision its precision or length, 0 or less for none
   * @param scale its scale
   */
  public static PgType of(int jdbcType, String typeName, int precision, int scale) {
    final String name = typeName.toLowerCase(Locale.ROOT);
    switch (jdbcType) {
    case Types.BOOLEAN:
    case Types.BIT:
      return new PgType(16, 1, -1);
    case Types.TINYINT:
    case Types.SMALLINT:
      return new PgType(21, 2, -1);
    case Types.INTEGER:
      return new PgType(23, 4, -1);
    case Types.BIGINT:
      return new PgType(20, 8, -1);
    case Types.REAL:
      return new PgType(700, 4, -1);
    case Types.FLOAT:
    case Types.DOUBLE:
      return new PgType(701, 8, -1);
    case Types.NUMERIC:
    case Types.DECIMAL:
      return new PgType(1700, -1, precision > 0 && precision <= MAX_NUMERIC
          ? ((precision << 16) | Math.max(0, scale)) + 4 : -1);
    case Types.CHAR:
    case Types.NCHAR:
      return new PgType(1042, -1, precision > 0 && precision <= MAX_VARCHAR ? precision + 4
          : -1);
    case Types.VARCHAR:
    case Types.NVARCHAR:
      return precision > 0 && precision <= MAX_VARCHAR && !name.equals("text")
          ? new PgType(1043, -1, precision + 4) : TEXT;
    case Types.DATE:
      return new PgType(1082, 4, -1);
    case Types.TIME:
      return new PgType(1083, 8, -1);
    case Types.TIMESTAMP:
      return name.contains("timestamptz") || name.contains("with time zone")
          || name.contains("with local time zone") ? new PgType(1184, 8, -1)
          : new PgType(1114, 8, -1);
    case Types.TIMESTAMP_WITH_TIMEZONE:
      return new PgType(1184, 8, -1);
    case Types.BINARY:
    case Types.VARBINARY:
    case Types.LONGVARBINARY:
    case Types.BLOB:
      return new PgType(17, -1, -1);
    case Types.OTHER:
      return name.equals("uuid") ? new PgType(2950, 16, -1) : TEXT;
    default:
      return TEXT;
    }
  }
}
