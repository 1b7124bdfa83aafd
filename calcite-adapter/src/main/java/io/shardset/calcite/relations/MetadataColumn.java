package io.shardset.calcite.relations;

import java.util.Objects;

/**
 * A column of a {@link java.sql.DatabaseMetaData} result as JDBC names and types it; the
 * embedded driver's results and the system tables remote clients query share them.
 *
 * @param name the column's name, such as {@code KEY_SEQ}
 * @param type its Java class: {@code String}, or a primitive for a column that is never null
 */
public record MetadataColumn(String name, Class<?> type) {
  public MetadataColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** Whether the column may hold NULL: only text columns may. */
  public boolean nullable() {
    return !type.isPrimitive();
  }
}
