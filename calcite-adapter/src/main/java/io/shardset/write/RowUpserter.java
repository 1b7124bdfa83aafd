package io.shardset.write;

import io.shardset.topology.RowSite;

import java.sql.SQLException;
import java.util.Arrays;

/**
 * Upsert by primary key into a logical table with each shard's native statement
 * ({@link UpsertSql}): each row goes where its inserted values place it, which is where a row
 * of its key lives when the routing columns are part of the key and never updated (the
 * planner only chooses this path then). The database decides between insert and update under
 * its own locks, so two statements upserting the same key never fail on a duplicate key.
 * Nothing is committed here. Not thread-safe.
 */
public final class RowUpserter implements AutoCloseable {
  private final TableWrite write;
  private final UpsertSpec spec;
  private final int columns;
  private final SiteBatches batches;
  private final UpsertSql[][] statements;
  private long rows;

  private RowUpserter(TableWrite write, UpsertSpec spec, int batchSize) {
    this.write = write;
    this.spec = spec;
    this.columns = write.table().layout().columns().size();
    this.statements = new UpsertSql[write.table().shardCount()][write.tablesPerShard()];
    this.batches = new SiteBatches(write, batchSize, site -> statement(site).sql());
  }

  /** An upserter sending a physical table's rows every {@code batchSize} rows. */
  public static RowUpserter open(TableWrite write, UpsertSpec spec, int batchSize) {
    if (spec.forms().size() != write.table().shardCount()) {
      throw new IllegalArgumentException("one upsert form per shard of "
          + write.table().qualifiedName());
    }
    return new RowUpserter(write, spec, batchSize);
  }

  /**
   * Upserts a row: the values to insert, in the table's column order, then the value of each
   * updated column.
   *
   * @throws SQLException if the row cannot be placed or a shard refused a batch
   */
  public void upsert(Object[] row) throws SQLException {
    if (row.length != columns + spec.updateColumns().size()) {
      throw new SQLException("table " + write.table().qualifiedName() + ": an upsert row has "
          + (columns + spec.updateColumns().size()) + " values, not " + row.length, "21S01");
    }
    for (RowSite site : write.place(Arrays.copyOf(row, columns))) {
      batches.add(site, statement(site).bind(row));
    }
    rows++;
  }

  /**
   * Sends every waiting row.
   *
   * @return the number of rows upserted: each inserted or updated one row of the logical
   *     table. Counted here rather than from the shards' answers, which differ: MariaDB says 2
   *     for an updated row and 0 for a row the update left as it was.
   */
  public long finish() throws SQLException {
    batches.flush();
    return rows;
  }

  private UpsertSql statement(RowSite site) {
    UpsertSql sql = statements[site.shard()][site.table()];
    if (sql == null) {
      sql = UpsertSql.of(write.site(site), spec.forms().get(site.shard()), spec);
      statements[site.shard()][site.table()] = sql;
    }
    return sql;
  }

  @Override public void close() {
    batches.close();
  }
}
