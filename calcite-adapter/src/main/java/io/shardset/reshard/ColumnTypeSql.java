package io.shardset.reshard;

import io.shardset.model.ColumnInfo;

import java.util.Locale;
import java.util.Set;

/**
 * The SQL type of a column as DDL on a database of the same product spells it, from the type
 * name, length, precision and scale the database's JDBC metadata reports.
 *
 * <p>Type names pass through as the database reports them (H2's {@code CHARACTER VARYING},
 * PostgreSQL's {@code int8}, MariaDB's {@code BIGINT} are each valid in their own DDL); what
 * this adds is the part metadata reports separately: a length, a precision and scale, or the
 * digits of fractional seconds. A length or precision that stands for "unbounded" is left
 * out, so the column stays unbounded.
 */
final class ColumnTypeSql {
  /** Types written with a length: {@code VARCHAR(20)}. */
  private static final Set<String> WITH_LENGTH = Set.of("CHARACTER VARYING", "CHARACTER",
      "VARCHAR", "CHAR", "BPCHAR", "VARCHAR_IGNORECASE", "BINARY VARYING", "BINARY",
      "VARBINARY", "BIT", "VARBIT", "NVARCHAR", "NCHAR");
  /** Types written with a precision and a scale: {@code NUMERIC(12, 2)}. */
  private static final Set<String> WITH_PRECISION_AND_SCALE = Set.of("NUMERIC", "DECIMAL");
  /** Types written with the digits of fractional seconds: {@code TIMESTAMP(3)}. */
  private static final Set<String> WITH_FRACTION = Set.of("TIMESTAMP", "TIME", "DATETIME",
      "TIMESTAMPTZ", "TIMETZ", "TIMESTAMP WITH TIME ZONE", "TIME WITH TIME ZONE");
  /** PostgreSQL reports an unbounded {@code varchar} or {@code bpchar} with this length. */
  private static final int UNBOUNDED_LENGTH = Integer.MAX_VALUE;
  /**
   * The largest precision PostgreSQL declares. pgjdbc reports an unconstrained {@code numeric}
   * with precision 0, older versions with a larger one (131089).
   */
  private static final int POSTGRES_MAX_NUMERIC_PRECISION = 1000;

  private ColumnTypeSql() {
  }

  /** The column's type as DDL spells it. */
  static String of(ColumnInfo column) {
    final String name = column.typeName();
    final String upper = name.toUpperCase(Locale.ROOT);
    if (WITH_LENGTH.contains(upper)) {
      final String base = upper.equals("BPCHAR") ? "char" : name;
      return column.precision() <= 0 || column.precision() == UNBOUNDED_LENGTH
          ? name : base + "(" + column.precision() + ")";
    }
    if (WITH_PRECISION_AND_SCALE.contains(upper)) {
      final boolean unconstrained = column.precision() <= 0
          || name.equals("numeric") && column.precision() > POSTGRES_MAX_NUMERIC_PRECISION
              && column.scale() == 0;
      return unconstrained ? name
          : name + "(" + column.precision() + ", " + column.scale() + ")";
    }
    if (WITH_FRACTION.contains(upper)) {
      final int space = name.indexOf(' ');
      // H2 puts the digits before the time zone: TIMESTAMP(3) WITH TIME ZONE.
      return space < 0 ? name + "(" + column.scale() + ")"
          : name.substring(0, space) + "(" + column.scale() + ")" + name.substring(space);
    }
    return name;
  }
}
