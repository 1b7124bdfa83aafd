package io.shardset.load;

import io.shardset.calcite.LiveRouting;
import io.shardset.calcite.LiveSource;
import io.shardset.calcite.ShardSite;
import io.shardset.calcite.ShardTable;
import io.shardset.execution.ShardException;
import io.shardset.model.LiveModel;
import io.shardset.model.ReshardSpec;
import io.shardset.model.Subpartitioning;
import io.shardset.routing.KeyHasher;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.sql.SqlDialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Writes rows of a logical table to the shards the table's routing assigns them to, in
 * batches: one row to one shard for a sharded table, to every shard for a duplicated one.
 * On a shard of a subpartitioned table, a row goes to the table of its subpartition.
 *
 * <p>Each shard's rows are committed batch by batch. Not thread-safe.
 */
public final class ShardedInserter implements AutoCloseable {
  private final ShardTable table;
  private final int batchSize;
  private final Function<ShardSite, String> statementSql;
  private final List<ShardWriter> writers = new ArrayList<>();
  private final long[] rowsPerShard;
  private boolean closed;
  /** How the table routes under the model file's version {@link #routedVersion}. */
  private LiveRouting routing;
  private long routedVersion = -1;

  private ShardedInserter(ShardTable table, int batchSize,
      Function<ShardSite, String> statementSql) {
    this.table = Objects.requireNonNull(table, "table");
    this.batchSize = batchSize;
    this.statementSql = Objects.requireNonNull(statementSql, "statementSql");
    this.rowsPerShard = new long[table.shardCount()];
    for (int i = 0; i < table.shardCount() * tablesPerShard(); i++) {
      writers.add(null);
    }
  }

  /** Opens an inserter; rows are sent to a shard every {@code batchSize} rows. */
  public static ShardedInserter open(ShardTable table, int batchSize) {
    return open(table, batchSize, ShardedInserter::insertSql);
  }

  /**
   * Opens an inserter that writes with the statement {@code statementSql} gives for each
   * shard (an upsert, say); its parameters are the table's columns in order.
   */
  public static ShardedInserter open(ShardTable table, int batchSize,
      Function<ShardSite, String> statementSql) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    return new ShardedInserter(table, batchSize, statementSql);
  }

  /**
   * Inserts one row, its values in the table's column order as JDBC values.
   *
   * @throws IllegalArgumentException if no shard accepts the row's key
   */
  public void insert(Object... row) {
    if (closed) {
      throw new IllegalStateException("inserter is closed");
    }
    if (row.length != table.site(0).physicalColumns().size()) {
      throw new IllegalArgumentException("table " + table.qualifiedName() + " has "
          + table.site(0).physicalColumns().size() + " columns; the row has " + row.length);
    }
    if (table.isDuplicated()) {
      for (int shard = 0; shard < table.shardCount(); shard++) {
        write(shard, 0, row);
      }
      return;
    }
    final int shard = shardOf(row);
    write(shard, subpartitionOf(row), row);
  }

  /** The number of physical tables on each shard: one, or one per subpartition. */
  private int tablesPerShard() {
    final Subpartitioning sub = table.subpartitioning();
    return sub == null ? 1 : sub.count();
  }

  /** The subpartition a row of this table belongs to; 0 for a table without any. */
  private int subpartitionOf(Object[] row) {
    final Subpartitioning sub = table.subpartitioning();
    if (sub == null) {
      return 0;
    }
    final OptionalInt subpartition = sub.subpartitionOf(row);
    if (subpartition.isEmpty()) {
      throw new IllegalArgumentException("table " + table.qualifiedName()
          + ": no subpartition accepts " + table.layout().columns().get(sub.column()).name()
          + " = " + row[sub.column()]);
    }
    return subpartition.getAsInt();
  }

  /** The shard a row of this table belongs to. */
  private int shardOf(Object[] row) {
    final ShardRouter router = Objects.requireNonNull(router(), "router");
    final List<Object> key = new ArrayList<>();
    for (int column : table.keyColumns()) {
      key.add(row[column]);
    }
    final OptionalInt shard = router.shardOf(key);
    if (shard.isEmpty()) {
      throw new IllegalArgumentException("table " + table.qualifiedName()
          + ": no shard accepts key " + describeKey(key));
    }
    checkNotMoving(row, key, table.shardName(shard.getAsInt()));
    return shard.getAsInt();
  }

  /** The router of the table's model as its model file says now. */
  private ShardRouter router() {
    final LiveSource source = table.live();
    if (source == null) {
      return table.router();
    }
    final LiveModel.Snapshot snapshot = source.model().current();
    if (snapshot.version() != routedVersion) {
      routing = LiveRouting.of(table, snapshot);
      routedVersion = snapshot.version();
    }
    return routing.routerOr(table.router());
  }

  /**
   * Refuses a row that a resharding in progress moves: its rows sit in move tables that the
   * resharding tool fills and empties, and a row written beside them would be lost or read
   * twice.
   *
   * @param shard the shard the table's routing puts the row on
   */
  private void checkNotMoving(Object[] row, List<Object> key, String shard) {
    final ReshardSpec reshard = table.reshard();
    if (reshard == null || !reshard.carries(table.spec())) {
      return;
    }
    final List<KeyType> types = table.keyTypes();
    final List<Object> shardKey = new ArrayList<>();
    for (String column : table.spec().shardKey()) {
      shardKey.add(row[table.layout().columnIndex(column)]);
    }
    final long hash = KeyHasher.hash(KeyHasher.keyBytes(
        types.subList(types.size() - shardKey.size(), types.size()), shardKey));
    final ReshardSpec.MoveSpec move = reshard.moveOf(hash);
    // Only a row of the moving shardspace moves: a composite table's row of another set
    // lies on another shardspace's shards.
    if (move != null && (move.source().equals(shard) || move.target().equals(shard))) {
      throw new IllegalArgumentException("table " + table.qualifiedName() + ": key "
          + describeKey(key) + " lies in hash range [" + move.from() + ", " + move.to()
          + ") of shardspace '" + reshard.shardspace() + "', which is moving from "
          + move.source() + " to " + move.target() + "; load it after the move");
    }
  }

  private String describeKey(List<Object> key) {
    final List<String> parts = new ArrayList<>();
    for (int i = 0; i < key.size(); i++) {
      parts.add(table.spec().routingKey().get(i) + " = " + key.get(i));
    }
    return String.join(", ", parts);
  }

  private void write(int shard, int subpartition, Object[] row) {
    final int index = shard * tablesPerShard() + subpartition;
    ShardWriter writer = writers.get(index);
    if (writer == null) {
      writer = new ShardWriter(table.site(shard).tables().get(subpartition));
      writers.set(index, writer);
    }
    writer.add(row);
    rowsPerShard[shard]++;
  }

  /** Rows written to each shard so far, in the table's shard order. */
  public long[] rowsPerShard() {
    return rowsPerShard.clone();
  }

  /** Sends and commits the remaining rows, and returns the connections. */
  @Override public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
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
    if (failure != null) {
      throw failure;
    }
  }

  /** One shard's open INSERT statement and its pending batch. */
  private final class ShardWriter {
    private final ShardSite site;
    private final Connection connection;
    private final PreparedStatement statement;
    private int pending;

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
      try {
        for (int i = 0; i < row.length; i++) {
          statement.setObject(i + 1, row[i]);
        }
        statement.addBatch();
        if (++pending == batchSize) {
          flush();
        }
      } catch (SQLException e) {
        throw failure(e);
      }
    }

    private void flush() throws SQLException {
      statement.executeBatch();
      connection.commit();
      pending = 0;
    }

    void close() {
      try (Connection c = connection; PreparedStatement s = statement) {
        if (pending > 0) {
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

  /** The plain INSERT of every column of the table on a shard, in the shard's dialect. */
  public static String insertSql(ShardSite site) {
    final SqlDialect dialect = site.dialect();
    final String table = site.qualifiedName().stream().map(dialect::quoteIdentifier)
        .collect(Collectors.joining("."));
    final String columns = site.physicalColumns().stream().map(dialect::quoteIdentifier)
        .collect(Collectors.joining(", "));
    final String marks = site.physicalColumns().stream().map(c -> "?")
        .collect(Collectors.joining(", "));
    return "INSERT INTO " + table + " (" + columns + ") VALUES (" + marks + ")";
  }
}
