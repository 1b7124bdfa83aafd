package io.shardset.write;

import io.shardset.topology.ShardSite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * One physical table's prepared statement in a write, and the parameter rows waiting to be
 * sent to it as one JDBC batch. Any statement whose parameters are a row's values can use it:
 * an INSERT of every column, an UPDATE or DELETE by key.
 */
public final class PhysicalBatch implements AutoCloseable {
  private final TableWrite write;
  private final int shard;
  private final ShardSite site;
  private final String sql;
  private final List<Object[]> waiting = new ArrayList<>();
  /** The ordinal in its statement of each waiting row, when keys are read back. */
  private final List<Integer> ordinals = new ArrayList<>();
  /** Where the keys the shard gives the rows go; null when none are read back. */
  private @Nullable ReturnedKeys returned;
  /** What each row changes by key (a "DELETE", say), when each must change one row; else
   * null. */
  private final @Nullable String oneRowEach;
  private PreparedStatement statement;
  private long affected;

  /**
   * A batch of {@code sql}, run on the physical table {@code site} of shard {@code shard}.
   */
  public PhysicalBatch(TableWrite write, int shard, ShardSite site, String sql) {
    this(write, shard, site, sql, null);
  }

  /**
   * A batch of {@code sql} each of whose rows must change exactly one row of the shard (a
   * change by primary key of a row the statement read); a row that changes none fails the
   * batch with SQLState 40001.
   *
   * @param oneRowEach what each row does, for the message (say "a DELETE by key"); null when
   *     any count is fine
   */
  public PhysicalBatch(TableWrite write, int shard, ShardSite site, String sql,
      @Nullable String oneRowEach) {
    this.write = write;
    this.shard = shard;
    this.site = site;
    this.sql = sql;
    this.oneRowEach = oneRowEach;
  }

  /** Adds a row of parameter values; sent by {@link #flush}. */
  public void add(Object[] parameters) {
    waiting.add(parameters);
  }

  /**
   * Adds a row of an INSERT whose generated keys are read back into {@code keys}, under the
   * row's ordinal in its statement.
   */
  void add(Object[] parameters, int ordinal, ReturnedKeys keys) {
    returned = keys;
    waiting.add(parameters);
    ordinals.add(ordinal);
  }

  /** The number of rows waiting to be sent. */
  public int waiting() {
    return waiting.size();
  }

  /** The rows the shard reported as changed by the batches sent so far. */
  public long affected() {
    return affected;
  }

  /**
   * Sends the waiting rows as one batch in the write's transaction.
   *
   * @throws SQLException naming the table and the shard, if the shard refused the batch (a
   *     duplicate key, say) or cannot be reached
   */
  public void flush() throws SQLException {
    if (waiting.isEmpty()) {
      return;
    }
    if (statement == null) {
      final Connection connection = write.connection(shard);
      try {
        statement = returned == null ? connection.prepareStatement(sql)
            : returned.prepare(connection, site, sql);
      } catch (SQLException e) {
        throw WriteFailures.onShard(site, write.table(), e);
      }
    }
    try {
      for (Object[] row : waiting) {
        for (int i = 0; i < row.length; i++) {
          statement.setObject(i + 1, row[i]);
        }
        statement.addBatch();
      }
      final int rows = waiting.size();
      waiting.clear();
      write.bound(statement, site);
      final int[] counts = statement.executeBatch();
      if (returned != null) {
        returned.read(statement, ordinals, site);
        ordinals.clear();
      }
      if (oneRowEach != null) {
        for (int count : counts) {
          if (count == 0) {
            throw WriteFailures.rowChanged(site, write.table(), oneRowEach);
          }
        }
      }
      affected += affected(counts, rows);
    } catch (BatchUpdateException e) {
      throw WriteFailures.onShard(site, write.table(), firstCause(e));
    } catch (SQLException e) {
      throw WriteFailures.onShard(site, write.table(), e);
    } catch (AssertionError e) {
      // pgJDBC, run with assertions on, asserts while it reports a batch on a connection
      // whose server is gone, where it would otherwise throw: the shard's connection failed.
      throw WriteFailures.onShard(site, write.table(), new SQLException(
          "the connection failed while the batch ran: " + e.getMessage(), "08006", e));
    }
  }

  /**
   * Sends the one waiting row as the write's only statement, when the transaction lets the
   * shard commit it as it runs it ({@link TableWrite#connectionForOnlyStatement}).
   *
   * @return whether it was sent; if not, nothing happened and {@link #flush} sends it
   * @throws SQLException naming the table and the shard, if the shard refused the row or
   *     cannot be reached
   */
  public boolean flushAlone() throws SQLException {
    if (waiting.size() != 1 || statement != null) {
      return false;
    }
    final Connection connection = write.connectionForOnlyStatement(shard);
    if (connection == null) {
      return false;
    }
    try (PreparedStatement alone = returned == null ? connection.prepareStatement(sql)
        : returned.prepare(connection, site, sql)) {
      final Object[] row = waiting.get(0);
      for (int i = 0; i < row.length; i++) {
        alone.setObject(i + 1, row[i]);
      }
      waiting.clear();
      write.bound(alone, site);
      affected += alone.executeUpdate();
      if (returned != null) {
        returned.read(alone, ordinals, site);
        ordinals.clear();
      }
    } catch (SQLException e) {
      throw WriteFailures.onShard(site, write.table(), e);
    }
    return true;
  }

  /** A batch's changed rows; a driver that does not count (SUCCESS_NO_INFO) counts its
   * rows. */
  private static long affected(int[] counts, int rows) {
    long sum = 0;
    for (int count : counts) {
      if (count == Statement.SUCCESS_NO_INFO) {
        return rows;
      }
      sum += count;
    }
    return sum;
  }

  /** The shard's own failure of a batch: drivers chain it behind the batch exception. */
  private static SQLException firstCause(BatchUpdateException e) {
    final SQLException next = e.getNextException();
    return next != null && next.getSQLState() != null && e.getSQLState() == null ? next : e;
  }

  /** Closes the statement; the connection stays the transaction's. */
  @Override public void close() {
    if (statement != null) {
      try {
        statement.close();
      } catch (SQLException e) {
        // The transaction's end closes what is left.
      }
      statement = null;
    }
  }
}
