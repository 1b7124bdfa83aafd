package io.shardset.calcite.runtime;

import org.apache.calcite.linq4j.Enumerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * Counts the rows of one execution of a shard scan and, at debug level, logs one line when it
 * ends: the table, the shards reached, the rows and the time taken.
 */
final class LoggingEnumerator implements Enumerator<Object[]> {
  private static final Logger LOGGER = LoggerFactory.getLogger(ShardQuery.class);

  private final Enumerator<Object[]> rows;
  private final Supplier<String> description;
  private final long start = System.nanoTime();
  private long count;
  private boolean logged;

  private LoggingEnumerator(Enumerator<Object[]> rows, Supplier<String> description) {
    this.rows = rows;
    this.description = description;
  }

  /**
   * Wraps {@code rows} when debug logging is on; otherwise returns them as they are, and the
   * description is never built.
   */
  static Enumerator<Object[]> wrap(Enumerator<Object[]> rows, Supplier<String> description) {
    return LOGGER.isDebugEnabled() ? new LoggingEnumerator(rows, description) : rows;
  }

  @Override public Object[] current() {
    return rows.current();
  }

  @Override public boolean moveNext() {
    final boolean more = rows.moveNext();
    if (more) {
      count++;
    }
    return more;
  }

  @Override public void reset() {
    rows.reset();
  }

  @Override public void close() {
    try {
      rows.close();
    } finally {
      if (!logged) {
        logged = true;
        LOGGER.debug("{}: {} rows in {} ms", description.get(), count,
            (System.nanoTime() - start) / 1_000_000L);
      }
    }
  }
}
