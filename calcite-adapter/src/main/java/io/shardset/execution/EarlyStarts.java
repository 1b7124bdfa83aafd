package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How many scans may hold a pooled shard's connections before their rows are read: half of
 * the shard's pool, so that a scan read at once always finds the other half.
 *
 * <p>A statement that joins above the shards reads its scans one after another (a hash join
 * reads its build side whole before it opens the other side); a scan started when the
 * statement starts overlaps its shards' work with the reading of the others, but holds its
 * connections, its rows waiting in its buffer, until the join reads it. Scans that wait on
 * each other's connections could then wait for ever, between statements too; a reservation
 * that is only taken when free keeps early scans from taking more than their half.
 */
final class EarlyStarts {
  private final Semaphore permits;

  EarlyStarts(int maxPoolSize) {
    this.permits = new Semaphore(maxPoolSize / 2);
  }

  /** A reservation for one early scan's connection, or null if half the pool is reserved. */
  ShardEndpoint.@Nullable EarlyStart tryReserve() {
    if (!permits.tryAcquire()) {
      return null;
    }
    final AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        permits.release();
      }
    };
  }
}
