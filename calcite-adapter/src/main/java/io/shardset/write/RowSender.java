package io.shardset.write;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * How a bulk writer sends rows to one physical table: a statement (or a PostgreSQL
 * {@code COPY}) of many rows at once rather than a round trip per row. The caller owns the
 * connection and its transaction; a sender only writes.
 */
public interface RowSender extends AutoCloseable {
  /**
   * Writes the rows, each its values in the table's column order.
   *
   * @throws SQLException as the shard reports it
   */
  void send(Connection connection, List<Object[]> rows) throws SQLException;

  /** Closes the statements the sender keeps between batches. */
  @Override void close();
}
