package io.shardset.calcite.runtime;

import io.shardset.topology.LiveModel;

import org.apache.calcite.linq4j.Enumerator;

/**
 * The rows of one execution, which ends its ticket when they are closed; their end counts
 * only if the process kept its lease on the model's catalog all along (else a shard may have
 * received rows this read did not look for).
 */
final class TicketEnumerator implements Enumerator<Object[]> {
  private final Enumerator<Object[]> rows;
  private final LiveModel.Ticket ticket;

  TicketEnumerator(Enumerator<Object[]> rows, LiveModel.Ticket ticket) {
    this.rows = rows;
    this.ticket = ticket;
  }

  @Override public Object[] current() {
    return rows.current();
  }

  @Override public boolean moveNext() {
    final boolean more = rows.moveNext();
    if (!more) {
      ticket.confirm();
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
      ticket.close();
    }
  }
}
