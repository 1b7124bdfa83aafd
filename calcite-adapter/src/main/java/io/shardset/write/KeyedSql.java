package io.shardset.write;

import io.shardset.topology.ShardSite;

import java.util.List;
import java.util.stream.Collectors;

/** UPDATE and DELETE statements of a physical table that address one row by its key. */
final class KeyedSql {
  private KeyedSql() {
  }

  /** {@code UPDATE t SET c = ?, ... WHERE k = ? AND ...}: the new values, then the key. */
  static String update(ShardSite site, List<Integer> columns, List<Integer> key) {
    return "UPDATE " + site.quotedName() + " SET " + columns.stream()
        .map(c -> name(site, c) + " = ?").collect(Collectors.joining(", ")) + where(site, key);
  }

  /** {@code DELETE FROM t WHERE k = ? AND ...}: the key. */
  static String delete(ShardSite site, List<Integer> key) {
    return "DELETE FROM " + site.quotedName() + where(site, key);
  }

  private static String where(ShardSite site, List<Integer> key) {
    return " WHERE " + key.stream().map(c -> name(site, c) + " = ?")
        .collect(Collectors.joining(" AND "));
  }

  private static String name(ShardSite site, int column) {
    return site.quoting().quote(site.physicalColumns().get(column));
  }
}
