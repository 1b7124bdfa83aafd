package io.shardset.calcite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;

/**
 * A foreign key of a logical table, in logical names, as a shard's
 * {@link java.sql.DatabaseMetaData#getImportedKeys} describes it: a shard can only declare one
 * whose rows live on the same shard, so it references a table of the same family or a
 * duplicated table.
 *
 * @param name the key's name on the shard, or null
 * @param pkTable the logical table it references, in the same schema
 * @param pkColumns the referenced columns, in key order
 * @param fkColumns the referencing columns, in key order
 * @param updateRule what an update of the referenced key does ({@code importedKeyCascade}...)
 * @param deleteRule what a delete of the referenced row does
 * @param deferrability the JDBC deferrability code
 */
public record ForeignKeyDef(@Nullable String name, String pkTable, List<String> pkColumns,
    List<String> fkColumns, short updateRule, short deleteRule, short deferrability) {
  public ForeignKeyDef {
    Objects.requireNonNull(pkTable, "pkTable");
    pkColumns = List.copyOf(pkColumns);
    fkColumns = List.copyOf(fkColumns);
    if (pkColumns.size() != fkColumns.size() || pkColumns.isEmpty()) {
      throw new IllegalArgumentException("foreign key " + name + " has " + fkColumns.size()
          + " columns referencing " + pkColumns.size());
    }
  }

  /** The same key under another name. */
  public ForeignKeyDef withName(@Nullable String otherName) {
    return new ForeignKeyDef(otherName, pkTable, pkColumns, fkColumns, updateRule, deleteRule,
        deferrability);
  }

  /** Whether the other key relates the same columns to the same table's. */
  public boolean relates(ForeignKeyDef other) {
    return pkTable.equals(other.pkTable) && pkColumns.equals(other.pkColumns)
        && fkColumns.equals(other.fkColumns);
  }
}
