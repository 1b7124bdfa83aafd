package io.shardset.sequence;

import io.shardset.model.SequenceSpec;

import java.sql.SQLException;

/**
 * A process's view of a global sequence: the block it holds, handed out value by value, and a
 * new block from the store when it runs out. Values increase within a process; two processes
 * never hand out the same value (their blocks differ), and a block left unused when the
 * process ends is a gap, never a repeat.
 */
public final class GlobalSequence {
  private final String id;
  private final String schema;
  private final SequenceSpec spec;
  private final SequenceStore store;
  /** The next value to hand out and the end of the block (exclusive); guarded by this. */
  private long next;
  private long limit;

  GlobalSequence(String id, String schema, SequenceSpec spec, SequenceStore store) {
    this.id = id;
    this.schema = schema;
    this.spec = spec;
    this.store = store;
  }

  /** What plans call the sequence by: its schema, name and a number unique in the process. */
  public String id() {
    return id;
  }

  public SequenceSpec spec() {
    return spec;
  }

  /**
   * The next value.
   *
   * @throws SQLException if a new block is needed and the store cannot give one; the
   *     message names the sequence and the store
   */
  public synchronized long next() throws SQLException {
    if (next == limit) {
      final long first;
      try {
        first = store.takeBlock(schema, spec);
      } catch (SQLException e) {
        throw new SQLException("cannot take a block of sequence " + schema + "." + spec.name()
            + " from " + store + ": " + e.getMessage(), e.getSQLState(), e);
      }
      next = first;
      limit = first + spec.blockSize();
    }
    return next++;
  }
}
