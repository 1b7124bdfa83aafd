package io.shardset.calcite.jdbc;

import org.apache.calcite.avatica.ColumnMetaData;

import java.sql.DatabaseMetaData;
import java.sql.JDBCType;
import java.sql.Types;

/**
 * The description of a generated key's column: its table's JDBC type, with the values as
 * the shards' drivers read them, whose Java class may differ from shard to shard (an INTEGER
 * key may come back as a {@code Long}); numbers are read as any number, other values as they
 * are.
 */
final class KeyColumnMetaData {
  private KeyColumnMetaData() {
  }

  static ColumnMetaData of(int ordinal, String name, int jdbcType) {
    final boolean number = isNumber(jdbcType);
    final boolean text = jdbcType == Types.VARCHAR || jdbcType == Types.CHAR
        || jdbcType == Types.NVARCHAR;
    final int type = number || text ? jdbcType : Types.JAVA_OBJECT;
    final ColumnMetaData.Rep rep = number ? ColumnMetaData.Rep.NUMBER
        : text ? ColumnMetaData.Rep.STRING : ColumnMetaData.Rep.OBJECT;
    final ColumnMetaData.AvaticaType avaticaType =
        ColumnMetaData.scalar(type, typeName(type), rep);
    return new ColumnMetaData(ordinal, false, true, false, false,
        DatabaseMetaData.columnNullable, true, 20, name, name, null, 0, 0, null, null,
        avaticaType, true, false, false, rep.clazz.getName());
  }

  private static boolean isNumber(int jdbcType) {
    return switch (jdbcType) {
    case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL,
        Types.NUMERIC, Types.REAL, Types.FLOAT, Types.DOUBLE -> true;
    default -> false;
    };
  }

  private static String typeName(int jdbcType) {
    try {
      return JDBCType.valueOf(jdbcType).getName();
    } catch (IllegalArgumentException e) {
      return "OTHER";
    }
  }
}
