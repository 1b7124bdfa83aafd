package io.shardset.model;

import java.sql.JDBCType;
import java.util.Objects;

/**
 * A column of a logical table, as its shards agree on it.
 *
 * @param name the logical name (see {@code io.shardset.topology.TableLayoutReader} for how
 *     it follows from the physical names)
 * @param jdbcType the {@link java.sql.Types} code
 * @param typeName the database's type name, from the table's first shard
 * @param precision the widest precision (or length) over the shards
 * @param scale the widest scale over the shards
 * @param nullable whether any shard allows NULL
 * @param fill what every shard puts in the column when an INSERT leaves it out
 */
public record ColumnInfo(String name, int jdbcType, String typeName, int precision, int scale,
    boolean nullable, ColumnDefault fill) {
  public ColumnInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(typeName, "typeName");
    Objects.requireNonNull(fill, "fill");
  }

  /** A column without a default of the shards'. */
  public ColumnInfo(String name, int jdbcType, String typeName, int precision, int scale,
      boolean nullable) {
    this(name, jdbcType, typeName, precision, scale, nullable, ColumnDefault.NONE);
  }

  /**
   * Whether every shard gives the column a value of its own when an INSERT leaves it out: a
   * DEFAULT, an identity or auto-increment column, a generated column.
   */
  public boolean defaulted() {
    return fill != ColumnDefault.NONE;
  }

  /** The name of the column's {@link java.sql.Types} code, such as {@code VARCHAR}. */
  public String jdbcTypeName() {
    return jdbcTypeName(jdbcType);
  }

  /** The name of a {@link java.sql.Types} code, or the code itself for a vendor type. */
  public static String jdbcTypeName(int jdbcType) {
    try {
      return JDBCType.valueOf(jdbcType).getName();
    } catch (IllegalArgumentException e) {
      return "type " + jdbcType;
    }
  }
}
