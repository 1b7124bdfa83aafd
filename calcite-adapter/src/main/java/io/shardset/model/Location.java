package io.shardset.model;

import java.util.Objects;

/**
 * Where a value sits in a model: the schema, the table or shard, and the entry of a list
 * field (such as {@code ranges}) when the value is inside one.
 *
 * @param schema the schema name
 * @param table the table name, or null
 * @param shard the shard name, or null
 * @param list the list field holding the entry, or the object field (such as
 *     {@code partitionBy}) this place is inside; null at the top of a table, shard or schema
 * @param entry the entry's position in that list, counting from 1; 0 when not inside an entry
 */
record Location(String schema, String table, String shard, String list, int entry) {
  Location {
    Objects.requireNonNull(schema, "schema");
  }

  /** The top level of a schema's operand. */
  static Location of(String schema) {
    return new Location(schema, null, null, null, 0);
  }

  /** A table of this schema. */
  Location table(String name) {
    return new Location(schema, name, null, null, 0);
  }

  /** A shard of this schema. */
  Location shard(String name) {
    return new Location(schema, null, name, null, 0);
  }

  /** The entry at a 0-based index of a list field here. */
  Location entry(String listField, int index) {
    return new Location(schema, table, shard, isInObject() ? list + "." + listField : listField,
        index + 1);
  }

  /** Inside an object field here: its keys are reported as {@code field.key}. */
  Location object(String field) {
    return new Location(schema, table, shard, list == null ? field : list + "." + field, 0);
  }

  private boolean isInObject() {
    return list != null && entry == 0;
  }

  /**
   * An error about a key here, or about this place as a whole when {@code key} is null.
   * Inside a list entry, the field named is the list, and the problem names the entry.
   */
  ModelException error(String key, String problem) {
    if (list == null) {
      return create(key, problem);
    }
    if (isInObject()) {
      return create(key == null ? list : list + "." + key, problem);
    }
    String where = "entry " + entry + (key == null ? "" : ", key '" + key + "'");
    return create(list, where + ": " + problem);
  }

  private ModelException create(String field, String problem) {
    return shard == null
        ? new ModelException(schema, table, field, problem)
        : ModelException.forShard(schema, shard, field, problem);
  }
}
