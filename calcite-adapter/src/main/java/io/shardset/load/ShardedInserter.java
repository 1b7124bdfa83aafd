package io.shardset.load;

import io.shardset.execution.ShardException;
import io.shardset.topology.LiveModel;
import io.shardset.topology.Placement;
import io.shardset.topology.PlacementException;
import io.shardset.topology.RowSite;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.TablePlacement;
import io.shardset.write.InsertSql;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Writes rows of a logical table to the shards the table's routing assigns them to, in
 * batches: one row to one shard for a sharded table, to every shard for a duplicated one.
 * On a shard of a subpartitioned table, a row goes to the table of its subpartition.
 *
 * <p>Each shard's rows are committed batch by batch. Not thread-safe.
 *
 * <p>When the table's schema follows a model file, rows routed but not yet sent hold a
 * {@link LiveModel} ticket, so that the resharding tool, which waits for executions under an
 * older version of the model, does not take a step while they could still be written where
 * that version put them. When the model changes meanwhile, they are routed again before they
 * are sent.
 */
public final class ShardedInserter implements AutoCloseable {
  private final ShardedTable table;
  private final int batchSize;
  private final Function<ShardSite, String> statementSql;
  private final List<ShardWriter> writers = new ArrayList<>();
  private final long[] rowsPerShard;
  /** Where the table's rows go, under the model version of {@link #ticket}. */
  private final TablePlacement placements;
  private final boolean live;
  private boolean closed;
  /** How rows are placed: as built, or under the snapshot of {@link #ticket}. */
  private @Nullable Placement placement;
  /** Held while rows routed under its snapshot wait to be sent; null when none wait. */
  private LiveModel.@Nullable Ticket ticket;
  /** Rows routed but not yet sent, over all writers. */
  private int pendingRows;

  private ShardedInserter(ShardedTable table, int batchSize,
      Function<ShardSite, String> statementSql) {
    this.table = Objects.requireNonNull(table, "table");
    this.batchSize = batchSize;
    this.statementSql = Objects.requireNonNull(statementSql, "statementSql");
    this.rowsPerShard = new long[table.shardCount()];
    this.placements = TablePlacement.of(table);
    this.live = placements.isLive();
    this.placement = live ? null : placements.asBuilt();
    for (int i = 0; i < table.shardCount() * tablesPerShard(); i++) {
      writers.add(null);
    }
  }

  /** Opens an inserter; rows are sent to a shard every {@code batchSize} rows. */
  public static ShardedInserter open(ShardedTable table, int batchSize) {
    return open(table, batchSize, ShardedInserter::insertSql);
  }

  /**
   * Opens an inserter that writes with the statement {@code statementSql} gives for each
   * shard (an upsert, say); its parameters are the table's columns in order.
   */
  public static ShardedInserter open(ShardedTable table, int batchSize,
      Function<ShardSite, String> statementSql) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    return new ShardedInserter(table, batchSize, statementSql);
  }

  /**
   * Inserts one row, its values in the table's column order as JDBC values.
   *
   * @throws IllegalArgumentException if no shard accepts the row's key, or the row (or a row
   *     inserted before and not sent yet, when the model changed meanwhile) lies in a range
   *     a resharding moves; such rows are not written
   * @throws IllegalStateException if the model now puts the table on other shards; the rows
   *     not sent yet are not written
   */
  public void insert(Object... row) {
    if (closed) {
      throw new IllegalStateException("inserter is closed");
    }
    if (row.length != table.site(0).physicalColumns().size()) {
      throw new IllegalArgumentException("table " + table.qualifiedName() + " has "
          + table.site(0).physicalColumns().size() + " columns; the row has " + row.length);
    }
    // Kept until sent, and maybe routed again: the caller may reuse its array.
    final Object[] kept = row.clone();
    if (!live) {
      route(kept);
      return;
    }
    try {
      follow();
      route(kept);
    } finally {
      releaseIfIdle();
    }
  }

  /**
   * Makes sure rows about to wait are routed under the snapshot of a ticket the inserter
   * holds, of the model's current version: waiting rows of an older one are routed again.
   */
  private void follow() {
    if (ticket != null && ticket.snapshot().version() != placements.current().version()) {
      reroute();
    }
    if (ticket == null) {
      final LiveModel.Ticket entered = placements.enter();
      try {
        if (placement == null || placement.version() != entered.snapshot().version()) {
          placement = placements.forWriting(entered.snapshot());
        }
      } catch (RuntimeException e) {
        entered.close();
        throw e;
      }
      ticket = entered;
    }
  }

  /**
   * Routes the waiting rows again under the model's current version, and holds a ticket of
   * that version instead: the resharding tool waits for the older one.
   */
  private void reroute() {
    final LiveModel.Ticket old = ticket;
    final List<Object[]> waiting = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      final ShardWriter writer = writers.get(i);
      if (writer != null) {
        final List<Object[]> rows = writer.take();
        rowsPerShard[i / tablesPerShard()] -= rows.size();
        pendingRows -= rows.size();
        // A duplicated table's row waits once per shard; route it once.
        if (!table.isDuplicated() || i == 0) {
          waiting.addAll(rows);
        }
      }
    }
    ticket = null;
    try {
      follow();
      routeAgain(waiting);
    } finally {
      old.close();
    }
  }

  /** Routes rows again; refuses, after keeping the others, those that now cannot load. */
  private void routeAgain(List<Object[]> rows) {
    IllegalArgumentException refused = null;
    int refusedRows = 0;
    for (Object[] row : rows) {
      try {
        route(row);
      } catch (IllegalArgumentException e) {
        refusedRows++;
        refused = refused == null ? e : refused;
      }
    }
    if (refused != null) {
      throw refusedRows == 1 ? refused : new IllegalArgumentException(refused.getMessage()
          + " (" + (refusedRows - 1) + " more rows inserted before were refused too)",
          refused);
    }
  }

  private void route(Object[] row) {
    final List<RowSite> sites;
    try {
      sites = placements.place(placement, row);
    } catch (PlacementException e) {
      if (e.reason() == PlacementException.Reason.MOVING) {
        throw new IllegalArgumentException(e.getMessage() + "; load it after the move", e);
      }
      throw e;
    }
    for (RowSite site : sites) {
      write(site.shard(), site.table(), row);
    }
  }

  /** The number of physical tables on each shard: one, or one per subpartition. */
  private int tablesPerShard() {
    return placements.tablesPerShard();
  }

  private void write(int shard, int subpartition, Object[] row) {
    final int index = shard * tablesPerShard() + subpartition;
    ShardWriter writer = writers.get(index);
    if (writer == null) {
      writer = new ShardWriter(table.site(shard).tables().get(subpartition));
      writers.set(index, writer);
    }
    rowsPerShard[shard]++;
    pendingRows++;
    writer.add(row);
  }

  /**
   * Ends the ticket once no row waits to be sent; only between rows, as a row routed under
   * the ticket's snapshot may still be written to more shards.
   */
  private void releaseIfIdle() {
    if (pendingRows == 0 && ticket != null) {
      ticket.close();
      ticket = null;
    }
  }

  /** Rows written to each shard so far, in the table's shard order. */
  public long[] rowsPerShard() {
    return rowsPerShard.clone();
  }

  /**
   * Sends and commits the remaining rows, and returns the connections.
   *
   * @throws IllegalArgumentException if the model changed since the remaining rows were
   *     inserted and some now lie in a moving range; the others are written
   * @throws IllegalStateException if the model now puts the table on other shards; the
   *     remaining rows are not written
   */
  @Override public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    try {
      if (ticket != null && ticket.snapshot().version() != placements.current().version()) {
        reroute();
      }
    } catch (RuntimeException e) {
      failure = e;
    }
    for (ShardWriter writer : writers) {
      if (writer == null) {
        continue;
      }
      try {
        writer.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (ticket != null) {
      ticket.close();
      ticket = null;
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** One shard's open INSERT statement and the rows waiting for its next batch. */
  private final class ShardWriter {
    private final ShardSite site;
    private final Connection connection;
    private final PreparedStatement statement;
    private List<Object[]> waiting = new ArrayList<>();

    ShardWriter(ShardSite site) {
      this.site = site;
      try {
        this.connection = site.endpoint().connect();
        this.connection.setAutoCommit(false);
        this.statement = connection.prepareStatement(statementSql.apply(site));
      } catch (SQLException e) {
        throw failure(e);
      }
    }

    void add(Object[] row) {
      waiting.add(row);
      if (waiting.size() == batchSize) {
        try {
          flush();
        } catch (SQLException e) {
          throw failure(e);
        }
      }
    }

    /** Removes the waiting rows, to be routed again. */
    List<Object[]> take() {
      final List<Object[]> taken = waiting;
      waiting = new ArrayList<>();
      return taken;
    }

    private void flush() throws SQLException {
      final int rows = waiting.size();
      for (Object[] row : waiting) {
        for (int i = 0; i < row.length; i++) {
          statement.setObject(i + 1, row[i]);
        }
        statement.addBatch();
      }
      waiting.clear();
      pendingRows -= rows;
      statement.executeBatch();
      connection.commit();
    }

    void close() {
      try (Connection c = connection; PreparedStatement s = statement) {
        if (!waiting.isEmpty()) {
          flush();
        }
      } catch (SQLException e) {
        throw failure(e);
      }
    }

    private ShardException failure(SQLException e) {
      return new ShardException(site.name(),
          site.endpoint().redact(String.valueOf(e.getMessage())), e);
    }
  }

  /** The plain INSERT of every column of the table on a shard, quoted as the shard quotes names. */
  public static String insertSql(ShardSite site) {
    return InsertSql.of(site);
  }
}
