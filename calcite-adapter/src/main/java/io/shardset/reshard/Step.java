package io.shardset.reshard;

/** The steps of a move, in the order {@link Mover} takes them. */
public enum Step {
  /** Create the new shard's tables (add-shard) and every move table; the model is unchanged. */
  PREPARE,
  /** Write the model: the new shard, the explicit chunk map, the move in phase copy. */
  ANNOUNCE,
  /** On each source, move the rows that leave it from its tables into its move tables. */
  DETACH,
  /** Copy the sources' move tables into the targets' move tables. */
  COPY,
  /** Check that the targets received every row and the sources' tables kept none. */
  VERIFY,
  /** Write the model: the chunk map names the targets, phase switched. */
  SWITCH,
  /** On each target, move its move tables' rows into its tables; drop the sources'. */
  MERGE,
  /** Write the model without the move (and without the shard that leaves). */
  FINISH,
  /** Drop the remaining move tables. */
  DROP
}
