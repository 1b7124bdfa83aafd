package io.shardset.calcite.runtime;

import io.shardset.topology.LiveModel;

import org.apache.calcite.linq4j.Enumerator;

/** The rows of one execution, which ends its ticket when they are closed. */
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
    return rows.moveNext();
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
