package io.shardset.write;

import io.shardset.execution.QueryTimeout;
import io.shardset.topology.LiveModel;
import io.shardset.topology.LiveSource;
import io.shardset.topology.Placement;
import io.shardset.topology.PlacementException;
import io.shardset.topology.RowSite;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.TablePlacement;
import io.shardset.transaction.ShardTransaction;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One statement's write to one logical table, inside a transaction: where its rows go, and
 * the transaction's connections to the shards that hold them.
 *
 * <p>The first write of a transaction to a table whose model follows a file enters the
 * model's current version and keeps the ticket in the transaction until it ends: every
 * statement of the transaction routes under that version, and a resharding waits before its
 * next step until the rows routed under it are committed or rolled back.
 *
 * <p>A row whose hash range a resharding moves is refused with SQLState 40001, at once or,
 * when the model sets {@code writeWaitMillis}, after waiting that long for the move to end.
 * Only a write whose transaction has routed nothing under its ticket yet waits: it gives the
 * ticket up while it waits, since the resharding tool waits for that ticket before its next
 * step, and enters the model's newer version when it comes.
 */
public final class TableWrite {
  private final ShardedTable table;
  private final ShardTransaction transaction;
  private final TablePlacement placements;
  private Placement placement;
  /** Whether this write entered the ticket it routes under (the transaction had none). */
  private final boolean enteredTicket;
  /** Whether a row was placed under the ticket. */
  private boolean placedAny;
  /** When a wait for a moving range gives up, by System.nanoTime(); 0 before any wait. */
  private long waitDeadline;

  /** The statement's time limit, and when it is up by {@link System#nanoTime()}. */
  private final QueryTimeout timeout;
  private final long deadlineNanos;

  private TableWrite(ShardedTable table, ShardTransaction transaction,
      TablePlacement placements, Placement placement, boolean enteredTicket,
      QueryTimeout timeout) {
    this.table = table;
    this.transaction = transaction;
    this.placements = placements;
    this.placement = placement;
    this.enteredTicket = enteredTicket;
    this.timeout = timeout;
    this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout.leftMillis());
  }

  /**
   * Starts a statement's write to {@code table} in {@code transaction}, with no time limit
   * but each shard's statement timeout.
   *
   * @throws SQLException (SQLState 40001) if the model now places the table where this
   *     process cannot write it
   */
  public static TableWrite open(ShardedTable table, ShardTransaction transaction)
      throws SQLException {
    return open(table, transaction, QueryTimeout.NONE);
  }

  /**
   * Starts a statement's write to {@code table} in {@code transaction}; each shard statement
   * it sends is bounded by what is left of {@code timeout} (see {@link #bound}).
   *
   * @throws SQLException (SQLState 40001) if the model now places the table where this
   *     process cannot write it
   */
  public static TableWrite open(ShardedTable table, ShardTransaction transaction,
      QueryTimeout timeout) throws SQLException {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(transaction, "transaction");
    Objects.requireNonNull(timeout, "timeout");
    final TablePlacement placements = TablePlacement.of(table);
    final LiveSource live = table.live();
    if (live == null) {
      return new TableWrite(table, transaction, placements, placements.asBuilt(), false,
          timeout);
    }
    final boolean[] entered = new boolean[1];
    final Placement placement = placed(placements, transaction, new ModelKey(live.model()),
        entered);
    return new TableWrite(table, transaction, placements, placement, entered[0], timeout);
  }

  /**
   * The placement of the write under the transaction's ticket of the model, entering one if
   * the transaction holds none ({@code entered[0]} says whether it did).
   *
   * @throws SQLException (SQLState 40001) if the model now places the table where this
   *     process cannot write it; a ticket entered for the refused statement is given back
   */
  private static Placement placed(TablePlacement placements, ShardTransaction transaction,
      ModelKey key, boolean[] entered) throws SQLException {
    final LiveModel.Ticket ticket = transaction.attachment(key, LiveModel.Ticket.class, () -> {
      entered[0] = true;
      return placements.enter();
    });
    try {
      return writing(placements, ticket, entered[0]);
    } catch (SQLException e) {
      if (entered[0]) {
        // Entered for this statement, which wrote nothing: held on, it would keep the
        // connection on the older version, and the statement run again would fail again.
        transaction.release(key);
      }
      throw e;
    }
  }

  /**
   * Gives a shard statement of the write its time limit: what is left of the statement's
   * query timeout, or the shard's statement timeout where that is shorter, in the whole
   * seconds JDBC counts; so that a write waiting on a lock or a slow shard ends with its
   * client's timeout (a lock wait's own limit is the shard's lock timeout).
   *
   * @throws SQLException (SQLState 57014) when the query's time is up already
   */
  public void bound(Statement statement, ShardSite site) throws SQLException {
    long limit = 0;
    if (timeout.limited()) {
      limit = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      if (limit <= 0) {
        throw new SQLTimeoutException(timeout.describe() + " elapsed before the statement on"
            + " shard '" + site.name() + "' of table " + table.qualifiedName() + " started",
            "57014");
      }
    }
    final long shardLimit = site.endpoint().statementTimeoutMillis();
    if (shardLimit > 0 && (limit == 0 || shardLimit < limit)) {
      limit = shardLimit;
    }
    if (limit > 0) {
      statement.setQueryTimeout((int) Math.min((limit + 999) / 1000, Integer.MAX_VALUE));
    }
  }

  /**
   * The placement of the write under the transaction's version of the model. A statement
   * planned just before a shard joined or left, or after its transaction began under the
   * version before, fails with 40001: run again (in a new transaction), it is planned on the
   * tables of the version it then runs under.
   */
  private static Placement writing(TablePlacement placements, LiveModel.Ticket ticket,
      boolean enteredNow) throws SQLException {
    ticket.check();
    try {
      return placements.forWriting(ticket.snapshot(), enteredNow
          ? "as when this statement was planned; run it again"
          : "as when this transaction began; roll it back and run it again");
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
    while (true) {
      try {
        final List<RowSite> sites = placements.place(placement, row);
        placedAny = true;
        return sites;
      } catch (PlacementException e) {
        if (!e.isRetryable()) {
          throw WriteFailures.unplaceable(e);
        }
        awaitMove(e);
      } catch (IllegalStateException e) {
        throw new SQLException("table " + table.qualifiedName() + ": " + e.getMessage(),
            WriteFailures.SERIALIZATION_FAILURE, e);
      }
    }
  }

  /**
   * Waits, when the model allows and the transaction holds nothing routed under its ticket,
   * for a newer version of the model, and routes under it from then on.
   *
   * @throws SQLException (SQLState 40001) when the write cannot wait or waited long enough
   */
  private void awaitMove(PlacementException moving) throws SQLException {
    final LiveSource live = table.live();
    final ModelKey key = new ModelKey(live.model());
    final LiveModel.Ticket ticket = transaction.attachment(key, LiveModel.Ticket.class,
        placements::enter);
    final long waitMillis = ticket.snapshot().model().writeWaitMillis();
    if (waitMillis == 0) {
      throw WriteFailures.unplaceable(moving);
    }
    if (!enteredTicket || placedAny) {
      throw WriteFailures.cannotWait(moving, "the transaction holds earlier writes, which"
          + " hold the move back; roll it back and retry after the move");
    }
    if (waitDeadline == 0) {
      waitDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    }
    final long version = ticket.snapshot().version();
    transaction.release(key);
    if (live.model().heldByCurrentThread() > 0) {
      throw WriteFailures.cannotWait(moving, "this thread has a query of the schema open"
          + " (INSERT ... SELECT, or an open result set), which holds the move back; retry"
          + " after the move");
    }
    try {
      if (live.model().awaitNewer(version, waitDeadline).version() <= version) {
        throw WriteFailures.cannotWait(moving, "waited " + waitMillis + " ms for the move"
            + " (writeWaitMillis); retry after the move");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw WriteFailures.cannotWait(moving, "interrupted while waiting for the move; retry"
          + " after the move");
    }
    placement = placed(placements, transaction, key, new boolean[1]);
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
      throw WriteFailures.unreachable(site, table, e);
    }
  }

  /**
   * The connection for the write's only statement, sent as the statement's last work, when
   * the transaction can let the shard commit it as it runs it (see
   * {@link ShardTransaction#connectionForOnlyStatement}); null otherwise.
   *
   * @throws SQLException naming the shard, its message redacted, if it cannot be reached
   */
  public @Nullable Connection connectionForOnlyStatement(int shard) throws SQLException {
    final ShardSite site = table.site(shard);
    try {
      return transaction.connectionForOnlyStatement(site.endpoint());
    } catch (SQLException e) {
      throw WriteFailures.unreachable(site, table, e);
    }
  }

  /** The key a transaction keeps a model's ticket under: one per model. */
  private record ModelKey(LiveModel model) {
  }
}
