package io.shardset.write;

import io.shardset.topology.ShardSite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/** The INSERT statement of a physical table: every column, one parameter each. */
public final class InsertSql {
  private InsertSql() {
  }

  /**
   * The plain INSERT of every column of the table at a site, names quoted as the shard quotes
   * them, its parameters the table's columns in logical order.
   */
  public static String of(ShardSite site) {
    return of(site, 1);
  }

  /**
   * The INSERT of {@code rows} rows at once into the table at a site: its parameters are the
   * rows' values, one row after the other, each in logical column order.
   */
  public static String of(ShardSite site, int rows) {
    return of(site, rows, null);
  }

  /**
   * The INSERT of {@code rows} rows at once into the table at a site, of the columns
   * {@code sent} (logical positions, in order; null for all): the others are left to the
   * shard's defaults.
   */
  public static String of(ShardSite site, int rows, @Nullable List<Integer> sent) {
    final List<String> physical = sent == null ? site.physicalColumns()
        : sent.stream().map(site.physicalColumns()::get).toList();
    final String columns = physical.stream().map(site.quoting()::quote)
        .collect(Collectors.joining(", "));
    final String tuple = "(" + String.join(", ", Collections.nCopies(physical.size(), "?"))
        + ")";
    return "INSERT INTO " + site.quotedName() + " (" + columns + ") VALUES "
        + String.join(", ", Collections.nCopies(rows, tuple));
  }
}
