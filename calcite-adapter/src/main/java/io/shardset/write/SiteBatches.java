package io.shardset.write;

import io.shardset.topology.RowSite;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One kind of statement's batches in a write, one per physical table it reaches, each sent
 * every {@code batchSize} rows and at {@link #flush}.
 */
final class SiteBatches implements AutoCloseable {
  private final TableWrite write;
  private final int batchSize;
  private final Function<RowSite, String> sql;
  private final Map<RowSite, PhysicalBatch> batches = new HashMap<>();

  /** Batches of the statement {@code sql} gives for each physical table. */
  SiteBatches(TableWrite write, int batchSize, Function<RowSite, String> sql) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
    }
    this.write = write;
    this.batchSize = batchSize;
    this.sql = sql;
  }

  /** Adds a row of parameters for the physical table at {@code site}. */
  void add(RowSite site, Object[] parameters) throws SQLException {
    final PhysicalBatch batch = batches.computeIfAbsent(site,
        s -> new PhysicalBatch(write, s.shard(), write.site(s), sql.apply(s)));
    batch.add(parameters);
    if (batch.waiting() >= batchSize) {
      batch.flush();
    }
  }

  /** Sends every waiting row. */
  void flush() throws SQLException {
    for (PhysicalBatch batch : batches.values()) {
      batch.flush();
    }
  }

  @Override public void close() {
    batches.values().forEach(PhysicalBatch::close);
  }
}
