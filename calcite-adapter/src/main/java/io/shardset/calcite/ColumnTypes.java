package io.shardset.calcite;

import io.shardset.execution.RowReader;
import io.shardset.model.ColumnInfo;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.sql.type.SqlTypeName;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Maps shard column metadata to Calcite types, and Calcite types to row readers. */
public final class ColumnTypes {
  /** Larger declared lengths (H2's default VARCHAR, PostgreSQL's TEXT) mean "unbounded". */
  private static final int MAX_DECLARED_LENGTH = 65_536;
  /** The length of {@code yyyy-MM-dd HH:mm:ss}. */
  private static final int TIMESTAMP_SECONDS_LENGTH = 19;

  private ColumnTypes() {
  }

  /** The logical row type of a table. */
  public static RelDataType rowType(RelDataTypeFactory typeFactory, List<ColumnInfo> columns) {
    final RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (ColumnInfo column : columns) {
      builder.add(column.name(),
          typeFactory.createTypeWithNullability(sqlType(typeFactory, column),
              column.nullable()));
    }
    return builder.build();
  }

  private static RelDataType sqlType(RelDataTypeFactory typeFactory, ColumnInfo column) {
    final RelDataTypeSystem system = typeFactory.getTypeSystem();
    switch (column.jdbcType()) {
    case Types.BIT:
    case Types.BOOLEAN:
      return typeFactory.createSqlType(SqlTypeName.BOOLEAN);
    case Types.TINYINT:
      return typeFactory.createSqlType(SqlTypeName.TINYINT);
    case Types.SMALLINT:
      return typeFactory.createSqlType(SqlTypeName.SMALLINT);
    case Types.INTEGER:
      return typeFactory.createSqlType(SqlTypeName.INTEGER);
    case Types.BIGINT:
      return typeFactory.createSqlType(SqlTypeName.BIGINT);
    case Types.DECIMAL:
    case Types.NUMERIC: {
      final int max = system.getMaxNumericPrecision();
      final int precision = column.precision() <= 0 || column.precision() > max
          ? max : column.precision();
      return typeFactory.createSqlType(SqlTypeName.DECIMAL, precision,
          Math.max(0, Math.min(column.scale(), precision)));
    }
    case Types.REAL:
      return typeFactory.createSqlType(SqlTypeName.REAL);
    case Types.FLOAT:
    case Types.DOUBLE:
      return typeFactory.createSqlType(SqlTypeName.DOUBLE);
    case Types.CHAR:
    case Types.NCHAR:
      return sized(typeFactory, SqlTypeName.CHAR, column.precision());
    case Types.DATE:
      return typeFactory.createSqlType(SqlTypeName.DATE);
    case Types.TIME:
      return typeFactory.createSqlType(SqlTypeName.TIME);
    case Types.TIMESTAMP:
      return typeFactory.createSqlType(SqlTypeName.TIMESTAMP,
          Math.max(0, Math.min(fractionalDigits(column),
              system.getMaxPrecision(SqlTypeName.TIMESTAMP))));
    case Types.BINARY:
    case Types.VARBINARY:
    case Types.LONGVARBINARY:
    case Types.BLOB:
      return sized(typeFactory, SqlTypeName.VARBINARY, column.precision());
    default:
      // VARCHAR and its relatives, and types Calcite has no name for (UUID, JSON, ...):
      // they are read as text.
      return sized(typeFactory, SqlTypeName.VARCHAR, column.precision());
    }
  }

  /**
   * The fractional second digits of a timestamp column. MariaDB's driver reports none for
   * {@code DATETIME(6)}, but a column size of 26: the 19 characters of
   * {@code yyyy-MM-dd HH:mm:ss}, the point, and one per digit.
   */
  private static int fractionalDigits(ColumnInfo column) {
    if (column.scale() == 0 && column.precision() > TIMESTAMP_SECONDS_LENGTH + 1) {
      return column.precision() - TIMESTAMP_SECONDS_LENGTH - 1;
    }
    return column.scale();
  }

  private static RelDataType sized(RelDataTypeFactory typeFactory, SqlTypeName name,
      int length) {
    return length <= 0 || length > MAX_DECLARED_LENGTH
        ? typeFactory.createSqlType(name)
        : typeFactory.createSqlType(name, length);
  }

  /**
   * Reads rows of the given type from a shard's result set.
   *
   * @param exactTimestamps whether TIMESTAMP columns are read as the LocalDateTime the shard
   *     returns, for rows that go to a write, rather than as Calcite's milliseconds
   */
  public static RowReader rowReader(RelDataType rowType, boolean exactTimestamps) {
    final List<RowReader.ColumnKind> kinds = new ArrayList<>();
    for (RelDataTypeField field : rowType.getFieldList()) {
      final RowReader.ColumnKind kind = kind(field.getType().getSqlTypeName());
      kinds.add(exactTimestamps && kind == RowReader.ColumnKind.TIMESTAMP
          ? RowReader.ColumnKind.EXACT_TIMESTAMP : kind);
    }
    return RowReader.of(kinds);
  }

  private static RowReader.ColumnKind kind(SqlTypeName name) {
    switch (name) {
    case BOOLEAN:
      return RowReader.ColumnKind.BOOLEAN;
    case TINYINT:
      return RowReader.ColumnKind.TINYINT;
    case SMALLINT:
      return RowReader.ColumnKind.SMALLINT;
    case INTEGER:
      return RowReader.ColumnKind.INTEGER;
    case BIGINT:
      return RowReader.ColumnKind.BIGINT;
    case DECIMAL:
      return RowReader.ColumnKind.DECIMAL;
    case REAL:
      return RowReader.ColumnKind.REAL;
    case FLOAT:
    case DOUBLE:
      return RowReader.ColumnKind.DOUBLE;
    case DATE:
      return RowReader.ColumnKind.DATE;
    case TIME:
      return RowReader.ColumnKind.TIME;
    case TIMESTAMP:
      return RowReader.ColumnKind.TIMESTAMP;
    case BINARY:
    case VARBINARY:
      return RowReader.ColumnKind.BINARY;
    default:
      return RowReader.ColumnKind.STRING;
    }
  }
}
