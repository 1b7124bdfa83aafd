package io.shardset.model;

import java.util.Objects;

/**
 * An error in a ShardSet model, naming the schema, and where known the table or shard and the
 * field at fault.
 *
 * <p>Messages never contain a password: they name fields and variables, not secret values.
 */
public final class ModelException extends RuntimeException {
  private final String schema;
  private final String table;
  private final String shard;
  private final String field;
  private final String problem;

  /**
   * Creates an error about a schema, or one of its tables.
   *
   * @param schema the schema name
   * @param table the table name, or null if the error is not about one table
   * @param field the field at fault, or null if the error is about the whole table or schema
   * @param problem what is wrong
   */
  public ModelException(String schema, String table, String field, String problem) {
    this(schema, table, null, field, problem, null);
  }

  /** Creates an error about a schema or one of its tables, caused by another exception. */
  public ModelException(String schema, String table, String field, String problem,
      Throwable cause) {
    this(schema, table, null, field, problem, cause);
  }

  private ModelException(String schema, String table, String shard, String field,
      String problem, Throwable cause) {
    super(message(schema, table, shard, field, problem), cause);
    this.schema = Objects.requireNonNull(schema, "schema");
    this.table = table;
    this.shard = shard;
    this.field = field;
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  /** Creates an error about one shard's entry in the model. */
  public static ModelException forShard(String schema, String shard, String field,
      String problem) {
    return new ModelException(schema, null, Objects.requireNonNull(shard, "shard"), field,
        problem, null);
  }

  private static String message(String schema, String table, String shard, String field,
      String problem) {
    StringBuilder b = new StringBuilder("Invalid ShardSet model: schema '").append(schema)
        .append('\'');
    if (table != null) {
      b.append(", table '").append(table).append('\'');
    }
    if (shard != null) {
      b.append(", shard '").append(shard).append('\'');
    }
    if (field != null) {
      b.append(", field '").append(field).append('\'');
    }
    return b.append(": ").append(problem).toString();
  }

  /** The schema whose model is wrong. */
  public String schema() {
    return schema;
  }

  /** The table at fault, or null. */
  public String table() {
    return table;
  }

  /** The shard at fault, or null. */
  public String shard() {
    return shard;
  }

  /** The field at fault, or null. */
  public String field() {
    return field;
  }

  /** What is wrong, without the schema, table, shard and field. */
  public String problem() {
    return problem;
  }
}
