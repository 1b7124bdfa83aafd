package io.shardset.calcite.jdbc;

import org.apache.calcite.avatica.MetaImpl.MetaColumn;
import org.apache.calcite.jdbc.CalciteMetaColumnFactory;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The rows of {@code DatabaseMetaData.getColumns} as JDBC defines them. Calcite puts the full
 * type in TYPE_NAME ({@code VARCHAR(40) NOT NULL}), where JDBC wants the type's name alone
 * ({@code VARCHAR}, as {@code getTypeInfo} lists it): size and nullability have their own
 * columns, and tools that append the size to the name printed
 * {@code VARCHAR(40) NOT NULL(40) NOT NULL}. COLUMN_SIZE also follows JDBC where Calcite says
 * -1 or a fractional-second precision: the precision of every numeric type, and the length of
 * a date or time written as text ({@code DATE} 10, {@code TIMESTAMP(3)} 23), whose
 * fractional digits go to DECIMAL_DIGITS.
 */
final class ShardSetColumnFactory implements CalciteMetaColumnFactory {
  /** Characters of {@code hh:mm:ss}. */
  private static final int TIME_LENGTH = 8;
  /** Characters of {@code yyyy-mm-dd}. */
  private static final int DATE_LENGTH = 10;

  private final CalciteMetaColumnFactory delegate;
  /** The connection's type factory, which exists only once the connection does. */
  private final Supplier<RelDataTypeFactory> typeFactory;

  ShardSetColumnFactory(CalciteMetaColumnFactory delegate,
      Supplier<RelDataTypeFactory> typeFactory) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.typeFactory = Objects.requireNonNull(typeFactory, "typeFactory");
  }

  @Override public MetaColumn createColumn(Table table, String tableCat, String tableSchem,
      String tableName, String columnName, int dataType, String typeName, Integer columnSize,
      @Nullable Integer decimalDigits, int numPrecRadix, int nullable, Integer charOctetLength,
      int ordinalPosition, String isNullable) {
    final RelDataTypeField field =
        table.getRowType(typeFactory.get()).getField(columnName, true, false);
    if (field == null) {
      return delegate.createColumn(table, tableCat, tableSchem, tableName, columnName,
          dataType, typeName, columnSize, decimalDigits, numPrecRadix, nullable,
          charOctetLength, ordinalPosition, isNullable);
    }
    final RelDataType type = valueType(field.getType());
    final SqlTypeName name = type.getSqlTypeName();
    final boolean fractional = name == SqlTypeName.TIME || name == SqlTypeName.TIMESTAMP
        || name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    final Integer digits = fractional ? Integer.valueOf(type.getPrecision()) : decimalDigits;
    return delegate.createColumn(table, tableCat, tableSchem, tableName, columnName, dataType,
        name.getName(), size(type, columnSize), digits, numPrecRadix, nullable,
        charOctetLength, ordinalPosition, isNullable);
  }

  /** The type a client reads: a measure's is its aggregated value's, as Calcite's DATA_TYPE. */
  private static RelDataType valueType(RelDataType type) {
    final RelDataType element = type.getMeasureElementType();
    return element != null ? element : type;
  }

  /** COLUMN_SIZE as JDBC defines it, or Calcite's where that already is. */
  private static Integer size(RelDataType type, Integer calcite) {
    final SqlTypeName name = type.getSqlTypeName();
    if (SqlTypeFamily.NUMERIC.contains(type)) {
      return type.getPrecision();
    }
    final int fraction = type.getPrecision() > 0 ? 1 + type.getPrecision() : 0;
    switch (name) {
    case DATE:
      return DATE_LENGTH;
    case TIME:
      return TIME_LENGTH + fraction;
    case TIMESTAMP:
    case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      return DATE_LENGTH + 1 + TIME_LENGTH + fraction;
    default:
      return calcite;
    }
  }

  @Override public List<String> getColumnNames() {
    return delegate.getColumnNames();
  }

  @Override public Class<? extends MetaColumn> getMetaColumnClass() {
    return delegate.getMetaColumnClass();
  }
}
