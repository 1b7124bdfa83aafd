package io.shardset.session;

import java.sql.SQLException;
import java.util.List;

/**
 * The rows of a JDBC batch that wait to be sent until the batch ends, which a session holds
 * for the statements of the batch.
 */
public interface PendingBatch extends AutoCloseable {
  /**
   * Sends every waiting row.
   *
   * @throws SQLException naming table and shard, if a shard refused rows
   */
  void flush() throws SQLException;

  /** The generated keys of the rows sent, as their statements asked for them. */
  default List<GeneratedKeys> keys() {
    return List.of();
  }

  /** Drops what was not sent. */
  @Override void close();
}
