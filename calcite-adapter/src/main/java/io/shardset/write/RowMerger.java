package io.shardset.write;

import io.shardset.topology.RowSite;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * MERGE row by row from rows the planner has already joined with the table (see
 * {@link MergeLayout}): a source row that matched a row of the table updates it by primary
 * key where it lives, or, when the update changes where the row belongs, deletes it there and
 * inserts it where it now belongs; a row that matched none is inserted where it belongs.
 *
 * <p>Unlike {@link RowUpserter} this is not safe against concurrent writers: the table was
 * read before this writes, and not through the transaction's connections, so a row inserted
 * or deleted in between makes an insert fail on a duplicate key or an update change nothing.
 * Nothing is committed here. Not thread-safe.
 */
public final class RowMerger implements AutoCloseable {
  private final TableWrite write;
  private final MergeLayout layout;
  private final int columns;
  private final SiteBatches deletes;
  private final SiteBatches updates;
  private final RowInserter inserter;
  private long rows;

  private RowMerger(TableWrite write, MergeLayout layout, int batchSize) {
    this.write = write;
    this.layout = layout;
    this.columns = write.table().layout().columns().size();
    this.deletes = new SiteBatches(write, batchSize,
        site -> KeyedSql.delete(write.site(site), layout.keyColumns()));
    this.updates = new SiteBatches(write, batchSize,
        site -> KeyedSql.update(write.site(site), layout.updateColumns(),
            layout.keyColumns()));
    this.inserter = RowInserter.open(write, batchSize);
  }

  /** A merger sending a physical table's rows every {@code batchSize} rows. */
  public static RowMerger open(TableWrite write, MergeLayout layout, int batchSize) {
    return new RowMerger(write, layout, batchSize);
  }

  /**
   * Merges one joined row.
   *
   * @throws SQLException if a row cannot be placed or a shard refused a batch
   */
  public void merge(Object[] row) throws SQLException {
    final int width = (layout.inserts() ? 2 : 1) * columns + layout.updateColumns().size();
    if (row.length != width) {
      throw new SQLException("table " + write.table().qualifiedName() + ": a MERGE row has "
          + width + " values, not " + row.length, "21S01");
    }
    final int base = layout.inserts() ? columns : 0;
    final Object[] old = Arrays.copyOfRange(row, base, base + columns);
    if (!layout.keyColumns().stream().allMatch(k -> old[k] != null)) {
      if (layout.inserts()) {
        inserter.insert(Arrays.copyOf(row, columns));
        rows++;
      }
      return;
    }
    if (layout.updateColumns().isEmpty()) {
      return;
    }
    final Object[] updated = old.clone();
    final Object[] parameters = new Object[layout.updateColumns().size()
        + layout.keyColumns().size()];
    for (int j = 0; j < layout.updateColumns().size(); j++) {
      updated[layout.updateColumns().get(j)] = row[base + columns + j];
      parameters[j] = row[base + columns + j];
    }
    final Object[] key = layout.keyColumns().stream().map(k -> old[k]).toArray();
    System.arraycopy(key, 0, parameters, layout.updateColumns().size(), key.length);
    final List<RowSite> was = write.place(old);
    final List<RowSite> now = write.place(updated);
    if (was.equals(now)) {
      for (RowSite site : was) {
        updates.add(site, parameters);
      }
    } else {
      // The update moves the row: it leaves its old physical table for its new one, in the
      // same transaction.
      for (RowSite site : was) {
        deletes.add(site, key);
      }
      inserter.insert(updated);
    }
    rows++;
  }

  /**
   * Sends every waiting row: deletes first, so that a moved row never meets its old self.
   *
   * @return the rows of the logical table inserted or updated
   */
  public long finish() throws SQLException {
    deletes.flush();
    updates.flush();
    inserter.finish();
    return rows;
  }

  @Override public void close() {
    deletes.close();
    updates.close();
    inserter.close();
  }
}
