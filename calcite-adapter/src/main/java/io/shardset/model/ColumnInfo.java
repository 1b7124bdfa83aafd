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
 */
public record ColumnInfo(String name, int jdbcType, String typeName, int precision, int scale,
    boolean nullable) {
  public ColumnInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(typeName, "typeName");
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
