package io.shardset.topology;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A process's lease on a model kept in a catalog, as the process itself measures it: held
 * while less than the lease has passed since the start of its last renewal that the catalog
 * took. As the catalog counts from when it recorded that renewal, later, the process gives up
 * serving before any other process counts it as gone.
 *
 * <p>Each time the lease lapsed counts, so that an execution that started before a lapse
 * fails rather than finish under a placement others may have moved on from.
 */
final class ModelLease {
  private final long leaseNanos;
  private final String schema;
  private final String catalog;
  /** {@link System#nanoTime()} at the start of the last renewal the catalog took. */
  private volatile long renewedAt;
  private final AtomicLong lapses = new AtomicLong();

  ModelLease(Duration lease, String schema, String catalog, long renewedAt) {
    this.leaseNanos = lease.toNanos();
    this.schema = schema;
    this.catalog = catalog;
    this.renewedAt = renewedAt;
  }

  /** The catalog took a renewal that started at {@code startedAt}. */
  void renew(long startedAt) {
    if (System.nanoTime() - renewedAt > leaseNanos) {
      // Lapsed since the last renewal, whether or not a statement saw it.
      lapses.incrementAndGet();
    }
    renewedAt = Math.max(renewedAt, startedAt);
  }

  /** How many times the lease lapsed and was renewed so far. */
  long lapses() {
    return lapses.get();
  }

  boolean held() {
    return System.nanoTime() - renewedAt <= leaseNanos;
  }

  /** Throws unless the lease is held. */
  void check() {
    if (!held()) {
      throw new LeaseLostException("this process lost its lease on schema '" + schema
          + "' of the " + catalog + ": it has not reached the catalog for "
          + seconds(System.nanoTime() - renewedAt) + " (lease " + seconds(leaseNanos) + "),"
          + " so other processes may have moved rows meanwhile; it serves again once it"
          + " reaches the catalog and reads the newest version");
    }
  }

  /** Throws unless the lease is held and did not lapse since {@code entered} lapses. */
  void check(long entered) {
    check();
    if (lapses.get() != entered) {
      throw new LeaseLostException("this process lost its lease on schema '" + schema
          + "' of the " + catalog + " while this statement ran, so other processes may have"
          + " moved rows meanwhile; run it again");
    }
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / (double) TimeUnit.SECONDS.toNanos(1));
  }
}
