package io.shardset.model;

/** What a shard puts in a column that an INSERT leaves out. */
public enum ColumnDefault {
  /** Nothing of its own: NULL, or a failure for a NOT NULL column. */
  NONE,
  /** The value of a DEFAULT expression, or of a generated column's. */
  EXPRESSION,
  /** The next value of an identity or auto-increment column: a generated key. */
  IDENTITY;

  /** What every shard puts in the column, of what this shard and another do. */
  public ColumnDefault and(ColumnDefault other) {
    return compareTo(other) <= 0 ? this : other;
  }
}
