package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Whether a shard is taken as down: from a failed attempt to connect to it until an attempt
 * succeeds again. While it is down, asking for a connection fails at once, naming the shard and
 * the last failure, so that a shard that does not answer costs one connect timeout, not one per
 * statement, per row-count estimate and per metadata read; the attempts to connect again are
 * the endpoint's probes, made in the background after a back-off that doubles from
 * {@value #FIRST_RETRY_MILLIS} ms up to {@value #LAST_RETRY_MILLIS} ms while the shard stays
 * down, so that no statement waits for one.
 *
 * <p>Thread-safe: statements ask concurrently, and a probe ends the down state from its own
 * thread.
 */
final class ShardHealth {
  /** SQLState of a shard that cannot be reached, as {@code ClientErrors} gives clients. */
  static final String UNREACHABLE = "08001";
  /** The first probe's delay after a shard is found down. */
  static final long FIRST_RETRY_MILLIS = 1_000;
  /** The longest delay between two probes of a shard that stays down. */
  static final long LAST_RETRY_MILLIS = 10_000;

  /** Why and since when a shard is down. */
  private record Down(long sinceNanos, String reason, long retryMillis) {
  }

  private final LongSupplier nanoTime;
  private volatile @Nullable Down down;
  /** The probes begun, for tests that tell a probe's connection from a statement's. */
  private final AtomicLong probes = new AtomicLong();

  ShardHealth() {
    this(System::nanoTime);
  }

  ShardHealth(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** Whether the shard is taken as down now. */
  boolean isDown() {
    return down != null;
  }

  /**
   * Refuses at once while the shard is down.
   *
   * @throws SQLTransientConnectionException (08001) saying how long ago the shard was found
   *     down and why
   */
  void checkUp() throws SQLTransientConnectionException {
    final Down current = down;
    if (current != null) {
      final long ago = TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - current.sinceNanos());
      // Without the shard's name: the callers' messages begin with it.
      throw new SQLTransientConnectionException("it is down: the last attempt to connect, "
          + ago + " ms ago, failed (" + current.reason() + "); ShardSet tries again in the"
          + " background, next within " + current.retryMillis() + " ms", UNREACHABLE);
    }
  }

  /**
   * Records a failed attempt to connect: the shard is down from now, if it was not already.
   *
   * @return the delay before the first probe, or -1 when the shard was down already (a probe
   *     is scheduled)
   */
  long connectFailed(String reason) {
    synchronized (this) {
      if (down != null) {
        return -1;
      }
      down = new Down(nanoTime.getAsLong(), reason, FIRST_RETRY_MILLIS);
      return FIRST_RETRY_MILLIS;
    }
  }

  /**
   * Records a probe that failed too.
   *
   * @return the delay before the next probe; -1 when the shard is up meanwhile (no probe)
   */
  long probeFailed(String reason) {
    synchronized (this) {
      final Down current = down;
      if (current == null) {
        return -1;
      }
      final long next = Math.min(current.retryMillis() * 2, LAST_RETRY_MILLIS);
      down = new Down(current.sinceNanos(), reason, next);
      return next;
    }
  }

  /** Counts a probe about to try a connection. */
  void probing() {
    probes.incrementAndGet();
  }

  /** The probes begun since the endpoint was made. */
  long probes() {
    return probes.get();
  }

  /** Records a connection made: the shard is up. */
  void connected() {
    if (down != null) {
      synchronized (this) {
        down = null;
      }
    }
  }
}
