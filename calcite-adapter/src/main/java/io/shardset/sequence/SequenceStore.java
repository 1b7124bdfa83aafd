package io.shardset.sequence;

import io.shardset.model.SequenceSpec;
import io.shardset.transaction.LogDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Where a schema's sequences keep their next free value: the table
 * {@code SHARDSET_SEQUENCES} of the database every process of the schema shares (the catalog,
 * or the decision log's database). Taking a block is one transaction that locks the
 * sequence's row, so two processes never take the same block.
 */
final class SequenceStore {
  /** The table of sequences. */
  static final String TABLE = "SHARDSET_SEQUENCES";
  /** How often a block is tried again when another process created the row meanwhile. */
  private static final int ATTEMPTS = 3;

  private final LogDatabase database;

  SequenceStore(LogDatabase database) {
    this.database = database;
  }

  /**
   * Takes the next block of a sequence: its first value; the block holds
   * {@code spec.blockSize()} values from there.
   *
   * @throws SQLException if the database cannot be reached, or the sequence would pass
   *     {@link Long#MAX_VALUE}
   */
  long takeBlock(String schema, SequenceSpec spec) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = database.connect()) {
        create(c);
        c.setAutoCommit(false);
        try {
          final long first = take(c, schema, spec);
          c.commit();
          return first;
        } catch (SQLException e) {
          c.rollback();
          if (attempt == ATTEMPTS || !isDuplicateKey(e)) {
            throw e;
          }
        }
      }
    }
  }

  private static long take(Connection c, String schema, SequenceSpec spec)
      throws SQLException {
    try (PreparedStatement select = c.prepareStatement("SELECT NEXT_VALUE FROM " + TABLE
        + " WHERE SCHEMA_NAME = ? AND SEQUENCE_NAME = ? FOR UPDATE")) {
      select.setString(1, schema);
      select.setString(2, spec.name());
      try (ResultSet rs = select.executeQuery()) {
        if (rs.next()) {
          final long first = rs.getLong(1);
          write(c, "UPDATE " + TABLE + " SET NEXT_VALUE = ? WHERE SCHEMA_NAME = ?"
              + " AND SEQUENCE_NAME = ?", after(schema, spec, first), schema, spec.name());
          return first;
        }
      }
    }
    // The sequence's first block: a second process inserting it too fails on the key.
    write(c, "INSERT INTO " + TABLE + " (NEXT_VALUE, SCHEMA_NAME, SEQUENCE_NAME)"
        + " VALUES (?, ?, ?)", after(schema, spec, spec.start()), schema, spec.name());
    return spec.start();
  }

  /** The first value after the block that starts at {@code first}. */
  private static long after(String schema, SequenceSpec spec, long first) throws SQLException {
    try {
      return Math.addExact(first, spec.blockSize());
    } catch (ArithmeticException e) {
      throw new SQLException("sequence " + schema + "." + spec.name() + " has no values left"
          + " (its next value is " + first + ")", "2200H");
    }
  }

  private static void write(Connection c, String sql, long next, String schema, String name)
      throws SQLException {
    try (PreparedStatement p = c.prepareStatement(sql)) {
      p.setLong(1, next);
      p.setString(2, schema);
      p.setString(3, name);
      p.executeUpdate();
    }
  }

  static void create(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (SCHEMA_NAME VARCHAR(128) NOT NULL,"
          + " SEQUENCE_NAME VARCHAR(128) NOT NULL, NEXT_VALUE BIGINT NOT NULL,"
          + " PRIMARY KEY (SCHEMA_NAME, SEQUENCE_NAME))");
    } catch (SQLException e) {
      // Created by another process at the same moment.
    }
  }

  private static boolean isDuplicateKey(SQLException e) {
    final String state = e.getSQLState();
    return state != null && state.startsWith("23");
  }

  /** The database as messages name it, without a password. */
  @Override public String toString() {
    return database.toString();
  }
}
