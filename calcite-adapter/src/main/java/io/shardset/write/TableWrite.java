package io.shardset.write;

import io.shardset.topology.LiveModel;
import io.shardset.topology.LiveSource;
import io.shardset.topology.Placement;
import io.shardset.topology.PlacementException;
import io.shardset.topology.RowSite;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.TablePlacement;
import io.shardset.transaction.ShardTransaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * One statement's write to one logical table, inside a transaction: where its rows go, and
 * the transaction's connections to the shards that hold them.
 *
 * <p>The first write of a transaction to a table whose model follows a file enters the
 * model's current version and keeps the ticket in the transaction until it ends: every
 * statement of the transaction routes under that version, and a resharding waits before its
 * next step until the rows routed under it are committed or rolled back.
 */
public final class TableWrite {
  private final ShardedTable table;
  private final ShardTransaction transaction;
  private final TablePlacement placements;
  private final Placement placement;

  private TableWrite(ShardedTable table, ShardTransaction transaction,
      TablePlacement placements, Placement placement) {
    this.table = table;
    this.transaction = transaction;
    this.placements = placements;
    this.placement = placement;
  }

  /**
   * Starts a statement's write to {@code table} in {@code transaction}.
   *
   * @throws SQLException (SQLState 40001) if the model now places the table where this
   *     process cannot write it
   */
  public static TableWrite open(ShardedTable table, ShardTransaction transaction)
      throws SQLException {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(transaction, "transaction");
    final TablePlacement placements = TablePlacement.of(table);
    final LiveSource live = table.live();
    if (live == null) {
      return new TableWrite(table, transaction, placements, placements.asBuilt());
    }
    final LiveModel.Ticket ticket = transaction.attachment(new ModelKey(live.model()),
        LiveModel.Ticket.class, placements::enter);
    try {
      return new TableWrite(table, transaction, placements,
          placements.forWriting(ticket.snapshot()));
    } catch (IllegalStateException e) {
      throw new SQLException(e.getMessage(), WriteFailures.SERIALIZATION_FAILURE, e);
    }
  }

  /** The table written. */
  public ShardedTable table() {
    return table;
  }

  /** The transaction written in. */
  public ShardTransaction transaction() {
    return transaction;
  }

  /** Where the model version of the transaction places the table's rows. */
  public Placement placement() {
    return placement;
  }

  /** The number of physical tables on each shard: one, or one per subpartition. */
  public int tablesPerShard() {
    return placements.tablesPerShard();
  }

  /**
   * The physical tables a row goes to, its values in the table's column order.
   *
   * @throws SQLException naming the table, the key and why, if the row cannot be placed; its
   *     SQLState is 40001 (retry) when the row's key range is being moved
   */
  public List<RowSite> place(Object[] row) throws SQLException {
    try {
      return placements.place(placement, row);
    } catch (PlacementException e) {
      throw WriteFailures.unplaceable(e);
    } catch (IllegalStateException e) {
      throw new SQLException("table " + table.qualifiedName() + ": " + e.getMessage(),
          WriteFailures.SERIALIZATION_FAILURE, e);
    }
  }

  /** The physical table at a site. */
  public ShardSite site(RowSite site) {
    return table.site(site.shard()).tables().get(site.table());
  }

  /**
   * The transaction's connection to one of the table's shards, enlisting it.
   *
   * @throws SQLException naming the shard, its message redacted, if it cannot be reached
   */
  public Connection connection(int shard) throws SQLException {
    final ShardSite site = table.site(shard);
    try {
      return transaction.connection(site.endpoint());
    } catch (SQLException e) {
      throw WriteFailures.onShard(site, table, e);
    }
  }

  /** The key a transaction keeps a model's ticket under: one per model. */
  private record ModelKey(LiveModel model) {
  }
}
