package io.shardset.write;

import io.shardset.topology.ShardSite;

import java.util.List;
import java.util.Locale;

/** The bulk sender each database takes best, by the product name its JDBC driver reports. */
public final class RowSenders {
  private RowSenders() {
  }

  /** Plain inserts: PostgreSQL's {@code COPY}, multi-row INSERTs elsewhere. */
  public static RowSender insert(ShardSite site, String product) {
    final RowSender rows = MultiRowSender.insert(site);
    return product.toLowerCase(Locale.ROOT).contains("postgres")
        ? CopySender.of(site, rows) : rows;
  }

  /**
   * Multi-row upserts by {@code key} (table column indexes), in the database's native form.
   *
   * @throws IllegalStateException for a database ShardSet knows no upsert of
   */
  public static RowSender upsert(ShardSite site, String product, List<Integer> key) {
    return MultiRowSender.upsert(site, upsertForm(site, product), key);
  }

  /**
   * The native upsert of the database at {@code site}.
   *
   * @throws IllegalStateException for a database ShardSet knows no upsert of
   */
  public static UpsertForm upsertForm(ShardSite site, String product) {
    final UpsertForm form = UpsertForm.ofProduct(product);
    if (form == null) {
      throw new IllegalStateException("shard '" + site.name() + "' runs " + product
          + ", for which ShardSet knows no upsert; load with --truncate or --append");
    }
    return form;
  }
}
