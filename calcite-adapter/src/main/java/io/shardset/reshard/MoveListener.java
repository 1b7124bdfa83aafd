package io.shardset.reshard;

import io.shardset.execution.ProgressMeters;

/**
 * Follows a move's progress. An exception thrown here aborts the move where it stands, in a
 * state from which {@link Mover#resume()} finishes it.
 */
public interface MoveListener {
  /** Ignores every event. */
  MoveListener NONE = new MoveListener() {
    @Override public void step(Step step, String detail) {
    }

    @Override public void rows(long copied, long total) {
    }
  };

  /**
   * A step starts ({@code detail} "start"), ends ("done"), or one of its parts starts or ends
   * (such as "source s0" and then "source s0: 1200 rows").
   */
  void step(Step step, String detail);

  /** COPY has copied this many of the rows it has to copy. */
  void rows(long copied, long total);

  /** COPY has copied all rows that move from {@code source} to {@code target}: this many. */
  default void moved(String source, String target, long rows) {
  }

  /** This listener, which also sets the rows copied on {@code meters}. */
  default MoveListener metered(ProgressMeters meters) {
    final MoveListener listener = this;
    return new MoveListener() {
      @Override public void step(Step step, String detail) {
        listener.step(step, detail);
      }

      @Override public void rows(long copied, long total) {
        meters.rows(copied, total);
        listener.rows(copied, total);
      }

      @Override public void moved(String source, String target, long rows) {
        listener.moved(source, target, rows);
      }
    };
  }
}
