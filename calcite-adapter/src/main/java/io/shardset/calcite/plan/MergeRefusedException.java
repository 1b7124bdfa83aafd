package io.shardset.calcite.plan;

/** A MERGE into a sharded table that ShardSet cannot run; the message says why and what to
 * do instead. */
public final class MergeRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  MergeRefusedException(String message) {
    super(message);
  }
}
