package io.shardset.transaction;

/**
 * Begins the transactions of one model's shards, decides those that span several, and
 * recovers the ones a failure left prepared but undecided.
 */
public final class TransactionCoordinator implements AutoCloseable {
  /** Creates a coordinator. */
  public TransactionCoordinator() {
  }

  /** Begins a transaction that enlists shards as it writes to them. */
  public ShardTransaction begin() {
    return new ShardTransaction(this);
  }

  @Override public void close() {
  }
}
