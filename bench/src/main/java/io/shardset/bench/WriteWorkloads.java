package io.shardset.bench;

import io.shardset.calcite.ShardSchema;
import io.shardset.load.ShardedInserter;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;
import io.shardset.write.RowSender;
import io.shardset.write.RowSenders;

import org.apache.calcite.jdbc.CalciteConnection;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The write workloads, into {@link WriteTable} (never into the tables the read workloads
 * read), as one {@link Operation} per system: D (plain JDBC to the shard that ShardSet's
 * router names), X (ShardSet) and S (ShardingSphere-JDBC), every connection in auto-commit
 * mode. Statements are prepared once, outside the measured time; a system that cannot prepare
 * one fails its first run with the reason, and is reported as not measured. Each operation
 * returns the number of rows it wrote (the checksum the harness compares), and every INSERT
 * has keys no earlier one had ({@link NewOrders}).
 */
public final class WriteWorkloads {
  /** w11 and w14's single rows: one new order. */
  static final String INSERT_ONE = WriteTable.insert(1);
  /** w12: a routed single-row UPDATE by the shard key and the primary key. */
  static final String UPDATE = "UPDATE " + WriteTable.NAME
      + " SET STATUS = ?, TOTAL = ? WHERE CUSTOMER_ID = ? AND ORDER_ID = ?";
  /** w20: the read of the row just inserted, by its shard key and primary key. */
  static final String READ_BACK = "SELECT STATUS, TOTAL FROM " + WriteTable.NAME
      + " WHERE CUSTOMER_ID = ? AND ORDER_ID = ?";
  /** w12: the rows in place before it, which its operations update in turn. */
  static final int UPDATED_ROWS = 10_000;
  /** The most characters of a reason a failure to prepare is reported with. */
  static final int REASON_LENGTH = 160;
  /** w13: the rows of one batch. */
  static final int BATCH_ROWS = 1_000;
  /** w15: the rows of one load. */
  static final int LOAD_ROWS = 100_000;
  /** w15: the rows per shard of one bulk statement, as {@code shardset load} sends them. */
  static final int LOAD_BATCH = 1_000;

  private final BenchSystems systems;
  private final NewOrders orders;
  /** Connections a workload turned auto-commit off on, to turn it back on after it. */
  private final List<Connection> inTransactions = new ArrayList<>();

  public WriteWorkloads(BenchSystems systems, BenchData data) {
    this.systems = Objects.requireNonNull(systems, "systems");
    this.orders = new NewOrders(data, systems.shardCount(), systems::shardOfWrite);
  }

  /** w11 on D, X and S: a prepared single-row INSERT of a new order. */
  public Map<String, Operation> singleInsert() throws SQLException {
    final Map<String, Operation> result = new LinkedHashMap<>();
    final List<PreparedStatement> perShard = prepareOnShards(INSERT_ONE);
    result.put("D", iteration -> {
      final Object[] row = orders.next();
      return insert(perShard.get(shardOf(row)), List.<Object[]>of(row));
    });
    result.put("X", prepared(systems.shardSet(), INSERT_ONE,
        statement -> iteration -> insert(statement, List.<Object[]>of(orders.next()))));
    result.put("S", prepared(systems.shardingSphere(), INSERT_ONE,
        statement -> iteration -> insert(statement, List.<Object[]>of(orders.next()))));
    return result;
  }

  /**
   * w12 on D, X and S: a prepared UPDATE of one row by its shard key and primary key, a
   * different row each iteration (every system of a round the same one, with the same values),
   * over {@link #UPDATED_ROWS} rows inserted first (by D, outside the measured time).
   */
  public Map<String, Operation> updateByKey() throws SQLException {
    final List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < UPDATED_ROWS; i++) {
      rows.add(orders.next());
    }
    insertDirectly(rows);
    final Map<String, Operation> result = new LinkedHashMap<>();
    final List<PreparedStatement> perShard = prepareOnShards(UPDATE);
    result.put("D", iteration -> {
      final Object[] row = rows.get(Math.floorMod(iteration, UPDATED_ROWS));
      return update(perShard.get(shardOf(row)), row, iteration);
    });
    result.put("X", prepared(systems.shardSet(), UPDATE, statement -> iteration ->
        update(statement, rows.get(Math.floorMod(iteration, UPDATED_ROWS)), iteration)));
    result.put("S", prepared(systems.shardingSphere(), UPDATE, statement -> iteration ->
        update(statement, rows.get(Math.floorMod(iteration, UPDATED_ROWS)), iteration)));
    return result;
  }

  /**
   * w13 on D, X and S: {@link #BATCH_ROWS} new orders, spread over every shard, as one JDBC
   * batch of the single-row INSERT. D splits the rows by shard and sends each shard its part as
   * one batch, the shards one after the other in one thread, each batch committed by the shard
   * on its own (auto-commit), which is what S does with a batch in auto-commit mode (S may run
   * the shards at the same time).
   */
  public Map<String, Operation> batchInsert() throws SQLException {
    final Map<String, Operation> result = new LinkedHashMap<>();
    final List<PreparedStatement> perShard = prepareOnShards(INSERT_ONE);
    result.put("D", iteration -> {
      long written = 0;
      for (Map.Entry<Integer, List<Object[]>> shard : byShard(newRows(BATCH_ROWS)).entrySet()) {
        written += batch(perShard.get(shard.getKey()), shard.getValue());
      }
      return written;
    });
    result.put("X", prepared(systems.shardSet(), INSERT_ONE,
        statement -> iteration -> batch(statement, newRows(BATCH_ROWS))));
    result.put("S", prepared(systems.shardingSphere(), INSERT_ONE,
        statement -> iteration -> batch(statement, newRows(BATCH_ROWS))));
    return result;
  }

  /**
   * w14 on D, X and S: one INSERT of four new orders, one on each shard, in auto-commit mode,
   * so that X and S each run one statement over four shards: X commits it as one transaction
   * of its coordinator (which is to commit on all four or on none), S in its default LOCAL
   * transaction mode commits each shard on its own (not atomic). D inserts the four rows one
   * by one, each committed by its shard.
   */
  public Map<String, Operation> fourShardInsert() throws SQLException {
    final int shards = systems.shardCount();
    final String sql = WriteTable.insert(shards);
    final Map<String, Operation> result = new LinkedHashMap<>();
    final List<PreparedStatement> perShard = prepareOnShards(INSERT_ONE);
    result.put("D", iteration -> {
      long written = 0;
      for (Object[] row : rowOnEachShard()) {
        written += insert(perShard.get(shardOf(row)), List.<Object[]>of(row));
      }
      return written;
    });
    result.put("X", prepared(systems.shardSet(), sql,
        statement -> iteration -> insert(statement, rowOnEachShard())));
    result.put("S", prepared(systems.shardingSphere(), sql,
        statement -> iteration -> insert(statement, rowOnEachShard())));
    return result;
  }

  /**
   * w20 on D, X and S: in one transaction (auto-commit off), a prepared single-row INSERT of
   * a new order, the read of that row by its shard key and primary key, and the commit: what
   * an application does that reads what it wrote before it commits. The read must see the
   * row; the checksum is 2 per operation (one row written, one read). D runs it on the shard
   * ShardSet's router names, committed there.
   */
  public Map<String, Operation> insertThenReadInTransaction() throws SQLException {
    final Map<String, Operation> result = new LinkedHashMap<>();
    final List<PreparedStatement> inserts = prepareOnShards(INSERT_ONE);
    final List<PreparedStatement> reads = prepareOnShards(READ_BACK);
    for (Connection shard : systems.shards()) {
      transactional(shard);
    }
    result.put("D", iteration -> {
      final Object[] row = orders.next();
      final int shard = shardOf(row);
      final long done = insert(inserts.get(shard), List.<Object[]>of(row))
          + readBack(reads.get(shard), row);
      systems.shard(shard).commit();
      return done;
    });
    result.put("X", inTransaction(systems.shardSet()));
    result.put("S", inTransaction(systems.shardingSphere()));
    return result;
  }

  /** w20's operation on one connection of a system, or one that fails with the reason. */
  private Operation inTransaction(Connection connection) {
    final PreparedStatement insert;
    final PreparedStatement read;
    try {
      transactional(connection);
      insert = connection.prepareStatement(INSERT_ONE);
      read = connection.prepareStatement(READ_BACK);
    } catch (SQLException | RuntimeException e) {
      final SQLException failure = new SQLException("cannot prepare: " + rootCause(e), e);
      return iteration -> {
        throw failure;
      };
    }
    return iteration -> {
      final Object[] row = orders.next();
      final long done = insert(insert, List.<Object[]>of(row)) + readBack(read, row);
      connection.commit();
      return done;
    };
  }

  /** Turns auto-commit off on the connection until {@link #clear}. */
  private void transactional(Connection connection) throws SQLException {
    connection.setAutoCommit(false);
    inTransactions.add(connection);
  }

  /** Reads the row back by CUSTOMER_ID and ORDER_ID: 1, or a failure if it is not there. */
  private static long readBack(PreparedStatement statement, Object[] row) throws SQLException {
    statement.setLong(1, (Long) row[1]);
    statement.setLong(2, (Long) row[0]);
    try (ResultSet rows = statement.executeQuery()) {
      if (!rows.next()) {
        throw new SQLException("the transaction does not see order " + row[0]
            + " it has just inserted");
      }
      return 1;
    }
  }

  /**
   * w15 on D and X: {@link #LOAD_ROWS} new orders loaded in bulk, the way {@code shardset load}
   * writes them once its CSV is parsed. X routes each row and writes through the loader's
   * {@link ShardedInserter} ({@code COPY} on PostgreSQL, multi-row INSERTs on H2, batches of
   * {@link #LOAD_BATCH} rows per shard, committed per batch, the shards in parallel). D gets
   * the rows already split by the shard ShardSet's router names and sends each shard its part
   * with the same bulk statement and batch size, each shard on a thread of its own: the ceiling
   * of the databases. S has no bulk loader and is not measured.
   */
  public Map<String, Operation> bulkLoad() throws SQLException {
    final ShardedTable table = writeTable();
    final Map<String, Operation> result = new LinkedHashMap<>();
    // Daemon threads: the operations have no end to shut them down at.
    final ExecutorService threads = Executors.newFixedThreadPool(systems.shardCount(),
        runnable -> {
          final Thread thread = new Thread(runnable, "bench-w15-direct");
          thread.setDaemon(true);
          return thread;
        });
    result.put("D", iteration -> {
      final List<Future<Long>> sent = new ArrayList<>();
      for (Map.Entry<Integer, List<Object[]>> shard : byShard(newRows(LOAD_ROWS)).entrySet()) {
        sent.add(threads.submit(() -> copy(table, shard.getKey(), shard.getValue())));
      }
      long written = 0;
      for (Future<Long> future : sent) {
        written += get(future);
      }
      return written;
    });
    result.put("X", iteration -> {
      try (ShardedInserter inserter = ShardedInserter.open(table, LOAD_BATCH)) {
        for (int i = 0; i < LOAD_ROWS; i++) {
          inserter.insert(orders.next());
        }
        inserter.close();
        return Arrays.stream(inserter.rowsPerShard()).sum();
      }
    });
    return result;
  }

  /** The write table as ShardSet resolved it. */
  private ShardedTable writeTable() throws SQLException {
    return systems.shardSet().unwrap(CalciteConnection.class).getRootSchema().subSchemas()
        .get(Models.SCHEMA).unwrap(ShardSchema.class).table(WriteTable.NAME).sharded();
  }

  /** Sends one shard its rows as D does in w15: bulk statements of LOAD_BATCH rows. */
  private long copy(ShardedTable table, int shard, List<Object[]> rows) throws SQLException {
    final Connection connection = systems.shard(shard);
    final ShardSite site = table.site(shard);
    try (RowSender sender = RowSenders.insert(site,
        connection.getMetaData().getDatabaseProductName())) {
      for (int from = 0; from < rows.size(); from += LOAD_BATCH) {
        sender.send(connection, rows.subList(from, Math.min(rows.size(), from + LOAD_BATCH)));
      }
    }
    return rows.size();
  }

  private static long get(Future<Long> future) throws SQLException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof SQLException sql ? sql
          : new SQLException(e.getCause().getMessage(), e.getCause());
    }
  }

  /**
   * Empties the write table on every shard, after a workload, so the next starts empty; a
   * connection the workload used in transactions first returns to auto-commit mode (which
   * commits what is open).
   */
  public void clear() throws SQLException {
    SQLException failure = null;
    for (Connection connection : inTransactions) {
      try {
        connection.rollback();
        connection.setAutoCommit(true);
      } catch (SQLException e) {
        failure = failure == null ? e : failure;
      }
    }
    inTransactions.clear();
    WriteTable.clear(systems.shards());
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * The rows of a batch, per shard that ShardSet's router names for them, in shard order.
   */
  Map<Integer, List<Object[]>> byShard(List<Object[]> rows) {
    final Map<Integer, List<Object[]>> result = new TreeMap<>();
    for (Object[] row : rows) {
      result.computeIfAbsent(shardOf(row), shard -> new ArrayList<>()).add(row);
    }
    return result;
  }

  /**
   * The number of rows a batch wrote, from {@link Statement#executeBatch}'s counts: a driver
   * that rewrites a batch into multi-row INSERTs (PgJDBC with reWriteBatchedInserts) answers
   * {@link Statement#SUCCESS_NO_INFO} for each row, which counts as one row. A failed row, or
   * a count JDBC does not define, fails the operation.
   */
  static long rowsWritten(int[] counts) throws SQLException {
    long rows = 0;
    for (int count : counts) {
      if (count == Statement.SUCCESS_NO_INFO) {
        rows++;
      } else if (count == Statement.EXECUTE_FAILED) {
        throw new SQLException("a row of the batch failed (EXECUTE_FAILED)");
      } else if (count < 0) {
        throw new SQLException("the batch gave a row the update count " + count
            + ", which JDBC does not define");
      } else {
        rows += count;
      }
    }
    return rows;
  }

  private int shardOf(Object[] row) {
    return systems.shardOfWrite((Long) row[1]);
  }

  private List<Object[]> newRows(int count) {
    final List<Object[]> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(orders.next());
    }
    return rows;
  }

  /** A new order on each shard, s0 first. */
  private List<Object[]> rowOnEachShard() {
    final List<Object[]> rows = new ArrayList<>();
    for (int shard = 0; shard < systems.shardCount(); shard++) {
      rows.add(orders.nextOn(shard));
    }
    return rows;
  }

  /** Inserts rows through the shards' own connections, outside the measured time. */
  private void insertDirectly(List<Object[]> rows) throws SQLException {
    final List<PreparedStatement> perShard = prepareOnShards(INSERT_ONE);
    try {
      for (Map.Entry<Integer, List<Object[]>> shard : byShard(rows).entrySet()) {
        final long written = batch(perShard.get(shard.getKey()), shard.getValue());
        if (written != shard.getValue().size()) {
          throw new SQLException("shard s" + shard.getKey() + " took " + written + " of "
              + shard.getValue().size() + " rows into " + WriteTable.NAME);
        }
      }
    } finally {
      for (PreparedStatement statement : perShard) {
        statement.close();
      }
    }
  }

  private List<PreparedStatement> prepareOnShards(String sql) throws SQLException {
    final List<PreparedStatement> perShard = new ArrayList<>();
    for (Connection shard : systems.shards()) {
      perShard.add(shard.prepareStatement(sql));
    }
    return perShard;
  }

  /**
   * The operation {@code build} makes of {@code sql} prepared on {@code connection}, or, when
   * the system cannot prepare it (X before it writes, say), an operation that fails with the
   * reason, so the system is reported as not measured and the others run.
   */
  private static Operation prepared(Connection connection, String sql, Prepared build) {
    final PreparedStatement statement;
    try {
      statement = connection.prepareStatement(sql);
    } catch (SQLException | RuntimeException | AssertionError e) {
      // A planner may fail an assertion (with -ea) on a statement it cannot implement yet.
      // Calcite's message names only the statement; the reason is at the end of the causes.
      final SQLException failure = new SQLException("cannot prepare: " + rootCause(e), e);
      return iteration -> {
        throw failure;
      };
    }
    final Operation operation = build.operation(statement);
    return iteration -> {
      try {
        return operation.run(iteration);
      } catch (AssertionError e) {
        // An error would end the whole benchmark; this is one system's failure.
        throw new SQLException("assertion failed: " + rootCause(e), e);
      }
    };
  }

  /**
   * The first line of the message of the last cause of {@code e} that has one, after the
   * cause's class name unless it is an SQLException (or {@code e}'s class name), at most
   * {@value #REASON_LENGTH} characters: a planner's message goes on with its whole search
   * space, which has no place in a table row.
   */
  static String rootCause(Throwable e) {
    String message = e.getClass().getName();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        // A driver's SQLException says what it means; anything else (a planner's
        // AssertionError whose message is only "UPDATE") needs its kind to be understood.
        message = (t instanceof SQLException ? "" : t.getClass().getSimpleName() + ": ")
            + t.getMessage().strip();
      }
    }
    final String line = message.lines().findFirst().orElse(message);
    return line.length() <= REASON_LENGTH ? line : line.substring(0, REASON_LENGTH) + "...";
  }

  /** Binds the rows, one after the other, to the statement's placeholders and runs it. */
  private static long insert(PreparedStatement statement, List<Object[]> rows)
      throws SQLException {
    bind(statement, rows);
    return statement.executeUpdate();
  }

  private static long batch(PreparedStatement statement, List<Object[]> rows)
      throws SQLException {
    for (Object[] row : rows) {
      bind(statement, List.<Object[]>of(row));
      statement.addBatch();
    }
    return rowsWritten(statement.executeBatch());
  }

  /** Sets the row's STATUS and TOTAL to values of the iteration, by CUSTOMER_ID and ORDER_ID. */
  private static long update(PreparedStatement statement, Object[] row, int iteration)
      throws SQLException {
    statement.setString(1, BenchData.STATUSES.get(Math.floorMod(iteration,
        BenchData.STATUSES.size())));
    statement.setBigDecimal(2, BigDecimal.valueOf(Math.floorMod(iteration, 100_000) + 100, 2));
    statement.setLong(3, (Long) row[1]);
    statement.setLong(4, (Long) row[0]);
    return statement.executeUpdate();
  }

  private static void bind(PreparedStatement statement, List<Object[]> rows)
      throws SQLException {
    int parameter = 1;
    for (Object[] row : rows) {
      for (Object value : row) {
        statement.setObject(parameter++, value);
      }
    }
  }

  /** Makes a system's operation of its prepared statement. */
  @FunctionalInterface
  private interface Prepared {
    Operation operation(PreparedStatement statement);
  }
}
