package io.shardset.load;

import io.shardset.execution.ShardException;
import io.shardset.topology.LiveModel;
import io.shardset.topology.Placement;
import io.shardset.topology.PlacementException;
import io.shardset.topology.RowSite;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;
import io.shardset.topology.TablePlacement;
import io.shardset.write.RowSender;
import io.shardset.write.RowSenders;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes rows of a logical table to the shards the table's routing assigns them to, in
 * batches: one row to one shard for a sharded table, to every shard for a duplicated one.
 * On a shard of a subpartitioned table, a row goes to the table of its subpartition. Rows are
 * placed by the table's {@link TablePlacement}, as SQL writes place them.
 *
 * <p>A batch goes to its table in as few round trips as the database allows (see
 * {@link RowSender}): PostgreSQL's {@code COPY}, multi-row INSERTs or upserts elsewhere. Each
 * physical table's batches are sent and committed on a thread of the inserter's own while the
 * caller goes on routing rows, so the shards are written in parallel; a table has one batch in
 * flight at most, and a failed one stops the inserter at the caller's next call. Not
 * thread-safe: one caller inserts.
 *
 * <p>When the table's schema follows a model file, rows routed but not yet sent hold a
 * {@link LiveModel} ticket, so that the resharding tool, which waits for executions under an
 * older version of the model, does not take a step while they could still be written where
 * that version put them. When the model changes meanwhile, they are routed again before they
 * are sent.
 */
public final class ShardedInserter implements AutoCloseable {
  /** Sender threads when the schema sets no {@code parallelism}. */
  private static final int DEFAULT_THREADS = 8;
  private final ShardedTable table;
  private final int batchSize;
  /** The key an upsert replaces rows by; empty for plain inserts. */
  private final List<Integer> upsertKey;
  /** Sends and commits the batches, one thread per physical table at most. */
  private final ExecutorService senders;
  /** The first failure of a batch sent in the background; set once. */
  private final AtomicReference<RuntimeException> failed = new AtomicReference<>();
  /** The failure thrown to the caller already, which close does not throw again. */
  private @Nullable RuntimeException reported;
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

  private ShardedInserter(ShardedTable table, int batchSize, List<Integer> upsertKey) {
    this.table = Objects.requireNonNull(table, "table");
    this.batchSize = batchSize;
    this.upsertKey = List.copyOf(upsertKey);
    this.rowsPerShard = new long[table.shardCount()];
    this.placements = TablePlacement.of(table);
    this.live = placements.isLive();
    this.placement = live ? null : placements.asBuilt();
    final int tables = table.shardCount() * tablesPerShard();
    for (int i = 0; i < tables; i++) {
      writers.add(null);
    }
    this.senders = Executors.newFixedThreadPool(Math.min(tables,
        table.parallelism() == null ? DEFAULT_THREADS : table.parallelism()), runnable -> {
          final Thread thread = new Thread(runnable, "shardset-load-" + table.qualifiedName());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Opens an inserter of plain inserts; a table's rows are sent every {@code batchSize}. */
  public static ShardedInserter open(ShardedTable table, int batchSize) {
    return open(table, batchSize, List.of());
  }

  /**
   * Opens an inserter that upserts: a row whose {@code key} (table column indexes) a table
   * holds replaces that row's other columns, in each shard's native upsert.
   *
   * @throws IllegalStateException if a shard's database has no upsert ShardSet knows
   */
  public static ShardedInserter upserting(ShardedTable table, int batchSize,
      List<Integer> key) {
    if (key.isEmpty()) {
      throw new IllegalArgumentException("an upsert needs a key");
    }
    for (int shard = 0; shard < table.shardCount(); shard++) {
      // Refused before anything is written: the writers make their senders on first use.
      final ShardSite site = table.site(shard);
      RowSenders.upsertForm(site, product(site));
    }
    return open(table, batchSize, key);
  }

  private static ShardedInserter open(ShardedTable table, int batchSize, List<Integer> key) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    return new ShardedInserter(table, batchSize, key);
  }

  private static String product(ShardSite site) {
    try (Connection connection = site.endpoint().connect()) {
      return connection.getMetaData().getDatabaseProductName();
    } catch (SQLException e) {
      throw new ShardException(site.name(),
          site.endpoint().redact(String.valueOf(e.getMessage())), e);
    }
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
    try {
      rethrowFailure();
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
    } catch (RuntimeException e) {
      if (e == failed.get()) {
        reported = e;
      }
      throw e;
    }
  }

  /**
   * Makes sure rows about to wait are routed under the snapshot of a ticket the inserter
   * holds, of the model's current version: waiting rows of an older one are routed again.
   */
  private void follow() {
    if (ticket != null) {
      // A process that lost its lease on the model's catalog writes nothing more.
      ticket.confirm();
    }
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
    // Batches in flight were routed under the old version: they end before its ticket does.
    awaitInFlight();
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
    if (pendingRows == 0 && ticket != null
        && writers.stream().allMatch(w -> w == null || w.idle())) {
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
    if (failure == null) {
      // The last batches go out in parallel too.
      try {
        for (ShardWriter writer : writers) {
          if (writer != null) {
            writer.flushInBackground();
          }
        }
      } catch (RuntimeException e) {
        failure = e;
      }
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
        } else if (failure != e) {
          failure.addSuppressed(e);
        }
      }
    }
    senders.shutdownNow();
    if (ticket != null) {
      ticket.close();
      ticket = null;
    }
    // A try-with-resources block would add the failure it caught to itself.
    if (failure != null && failure != reported) {
      throw failure;
    }
  }

  /** Throws the failure of a batch sent in the background, if one failed. */
  private void rethrowFailure() {
    final RuntimeException failure = failed.get();
    if (failure != null) {
      throw failure;
    }
  }

  /** Waits for every batch in flight; throws the first failure. */
  private void awaitInFlight() {
    for (ShardWriter writer : writers) {
      if (writer != null) {
        writer.awaitInFlight();
      }
    }
  }

  /**
   * One physical table's connection, the rows waiting for its next batch, and the batch in
   * flight. The connection and sender are used by the batch's thread while one is in flight,
   * and by nobody else: the next batch waits for it.
   */
  private final class ShardWriter {
    private final ShardSite site;
    private final Connection connection;
    private final RowSender sender;
    private List<Object[]> waiting = new ArrayList<>();
    private @Nullable Future<?> inFlight;

    ShardWriter(ShardSite site) {
      this.site = site;
      try {
        this.connection = site.endpoint().connect();
        this.connection.setAutoCommit(false);
        this.sender = sender(connection.getMetaData().getDatabaseProductName());
      } catch (SQLException e) {
        throw failure(e);
      }
    }

    private RowSender sender(String product) {
      return upsertKey.isEmpty() ? RowSenders.insert(site, product)
          : RowSenders.upsert(site, product, upsertKey);
    }

    void add(Object[] row) {
      waiting.add(row);
      if (waiting.size() == batchSize) {
        flushInBackground();
      }
    }

    /** Removes the waiting rows, to be routed again. */
    List<Object[]> take() {
      final List<Object[]> taken = waiting;
      waiting = new ArrayList<>();
      return taken;
    }

    /** Whether no batch of this table is in flight. */
    boolean idle() {
      return inFlight == null || inFlight.isDone();
    }

    /** Sends the waiting rows on a sender thread, after the batch in flight. */
    void flushInBackground() {
      if (waiting.isEmpty()) {
        return;
      }
      awaitInFlight();
      final List<Object[]> batch = waiting;
      waiting = new ArrayList<>();
      pendingRows -= batch.size();
      inFlight = senders.submit(() -> {
        try {
          sender.send(connection, batch);
          connection.commit();
        } catch (SQLException e) {
          failed.compareAndSet(null, failure(e));
        } catch (RuntimeException e) {
          failed.compareAndSet(null, e);
        }
      });
    }

    /** Waits for the batch in flight; throws the inserter's first failure. */
    void awaitInFlight() {
      if (inFlight != null) {
        try {
          inFlight.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while a batch was sent to shard '"
              + site.name() + "'", e);
        } catch (ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        }
        inFlight = null;
      }
      rethrowFailure();
    }

    void close() {
      try (Connection c = connection; RowSender s = sender) {
        awaitInFlight();
        if (!waiting.isEmpty()) {
          flushInBackground();
          awaitInFlight();
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
}
