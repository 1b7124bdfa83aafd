package io.shardset.catalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The lock that lets one mover at a time work on a schema of a catalog, from any machine: a
 * row of {@code SHARDSET_MOVE_LOCKS} locked by an open transaction on a connection of the
 * mover's own. The catalog database lets it go when the mover ends it, or when the mover's
 * connection dies with its process, as an operating system lets go of a file lock.
 */
public final class CatalogMoveLock implements AutoCloseable {
  /** The table of lock rows, one per schema. */
  public static final String TABLE = "SHARDSET_MOVE_LOCKS";

  private final Connection connection;

  private CatalogMoveLock(Connection connection) {
    this.connection = connection;
  }

  /**
   * Takes the move lock of a schema.
   *
   * @throws IllegalStateException if another mover holds it
   * @throws SQLException if the catalog cannot be reached
   */
  public static CatalogMoveLock acquire(CatalogDatabase database, String schema)
      throws SQLException {
    database.createTables();
    final Connection c = database.connect();
    try {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO " + TABLE
          + " (SCHEMA_NAME) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM " + TABLE
          + " WHERE SCHEMA_NAME = ?)")) {
        p.setString(1, schema);
        p.setString(2, schema);
        p.executeUpdate();
      } catch (SQLException e) {
        // Another mover inserted the row at the same moment: it is there, lock it below.
      }
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("SELECT SCHEMA_NAME FROM " + TABLE
          + " WHERE SCHEMA_NAME = ? FOR UPDATE NOWAIT")) {
        p.setString(1, schema);
        try (ResultSet rs = p.executeQuery()) {
          if (!rs.next()) {
            throw new SQLException("the move lock row of schema '" + schema + "' is missing");
          }
        }
      } catch (SQLException e) {
        throw new IllegalStateException("another reshard apply is running on schema '"
            + schema + "' of the " + database + " (it holds the schema's row of " + TABLE
            + "); wait for it to end", e);
      }
      return new CatalogMoveLock(c);
    } catch (SQLException | RuntimeException e) {
      try {
        c.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Lets go of the lock. */
  @Override public void close() throws SQLException {
    try {
      connection.rollback();
    } finally {
      connection.close();
    }
  }
}
