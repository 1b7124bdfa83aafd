package io.shardset.calcite.runtime;

import org.apache.calcite.linq4j.Enumerator;

import java.util.ArrayList;
import java.util.List;

/**
 * The scans one execution of a statement started early (see {@link ShardEnumerables}) that
 * no operator has read yet, so that the execution's end closes them.
 *
 * <p>An operator closes the inputs it opened; a scan started early but never opened by the
 * operator above it (a hash join whose other side has no row, or that failed first) would
 * otherwise keep its shards' connections until its statement closes. The statement's
 * preparation puts one of these in each execution's data context, under {@link #NAME}, and
 * closes it with the execution's rows; without one, as on a {@code jdbc:calcite:}
 * connection, no scan starts early.
 */
public final class ExecutionScans {
  /** The data context variable that holds an execution's. */
  public static final String NAME = "shardset.executionScans";

  private final List<Enumerator<?>> unread = new ArrayList<>();
  private boolean closed;

  /** Takes a scan started early; false (and the caller closes it) if the execution ended. */
  synchronized boolean started(Enumerator<?> scan) {
    if (closed) {
      return false;
    }
    unread.add(scan);
    return true;
  }

  /** The operator above opened the scan, and closes it itself. */
  synchronized void opened(Enumerator<?> scan) {
    unread.remove(scan);
  }

  /** Closes the scans no operator opened; later early starts are refused. */
  public void close() {
    final List<Enumerator<?>> scans;
    synchronized (this) {
      closed = true;
      scans = List.copyOf(unread);
      unread.clear();
    }
    RuntimeException failure = null;
    for (Enumerator<?> scan : scans) {
      try {
        scan.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
