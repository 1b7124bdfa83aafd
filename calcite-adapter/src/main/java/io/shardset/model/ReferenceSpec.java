package io.shardset.model;

import java.util.List;
import java.util.Objects;

/**
 * A relationship the model declares from a table's columns to another table's, listed as a
 * foreign key to BI tools where the shards cannot declare one (the rows it relates may live
 * on different shards); nothing enforces it.
 *
 * @param name the key's name
 * @param columns the table's referencing columns, in key order
 * @param table the referenced table, in the same schema
 * @param tableColumns the referenced columns, in key order; empty for the referenced table's
 *     primary key
 */
public record ReferenceSpec(String name, List<String> columns, String table,
    List<String> tableColumns) {
  /** The model field that declares references. */
  public static final String FIELD = "references";

  public ReferenceSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(table, "table");
    columns = List.copyOf(columns);
    tableColumns = List.copyOf(tableColumns);
  }
}
