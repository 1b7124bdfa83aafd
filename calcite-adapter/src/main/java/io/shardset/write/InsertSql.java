package io.shardset.write;

import io.shardset.topology.ShardSite;

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
    final String columns = site.physicalColumns().stream().map(site.quoting()::quote)
        .collect(Collectors.joining(", "));
    final String marks = site.physicalColumns().stream().map(c -> "?")
        .collect(Collectors.joining(", "));
    return "INSERT INTO " + site.quotedName() + " (" + columns + ") VALUES (" + marks + ")";
  }
}
