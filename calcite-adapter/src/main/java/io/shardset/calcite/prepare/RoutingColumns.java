package io.shardset.calcite.prepare;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardTable;
import io.shardset.model.ShardingMethod;
import io.shardset.model.TableSpec;

import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlIdentifier;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The columns of a connection's ShardSet tables whose literals the planner needs to see: a
 * value compared with one of them decides the plan's shape, not only which shards an
 * execution reads, so a statement that carried it as a parameter would be planned worse than
 * the statement as written (on {@code jdbc:calcite:}).
 *
 * <ul>
 *   <li>The partition column of each composite table: a literal there restricts the table to
 *   one shardspace when the query is planned, which is what lets its join with a
 *   consistent-hash table of that shardspace run inside the shards. A parameter leaves the
 *   restriction to the execution, too late for the join.
 *   <li>In a query that reads more than one table and keeps such a partition literal, the
 *   shard key columns of composite tables as well: the planner knows a scan's shards only when
 *   its whole key condition is known, so a key parameter beside the partition literal would
 *   again leave the restriction to the execution.
 *   <li>The subpartition column of each subpartitioned table: a literal there fixes the
 *   subpartition tables in the plan, and one that no subpartition accepts prunes the scan to
 *   no shard, where a parameter reads every target shard and picks its tables at execution.
 *   <li>The shard key of each list table, compared with {@code <>} or {@code NOT IN}: literals
 *   there prune the shards whose every value they exclude; parameters there do not prune.
 * </ul>
 *
 * <p>Other shard key literals are not among them: a point query's plan with {@code ?} is as
 * good, pruning answers it at execution, and such statements must share one plan.
 *
 * <p>Columns are known by name only, as written in the model, compared without regard to
 * case: a literal compared with any column of that name, in any table, stays a literal. This
 * is decided from the statement's text alone, before and without planning, so it costs
 * nothing on a cache hit and does not depend on what the planner's rules do; the price is
 * some sharing lost where names collide. A column renamed on the way (a derived table's
 * alias) is not recognised, and its literal becomes a parameter as any other.
 */
final class RoutingColumns {
  private final Set<String> partitions;
  private final Set<String> compositeKeys;
  private final Set<String> subpartitions;
  private final Set<String> listKeys;

  @Override public boolean equals(@Nullable Object o) {
    return o instanceof RoutingColumns other && partitions.equals(other.partitions)
        && compositeKeys.equals(other.compositeKeys) && subpartitions.equals(other.subpartitions)
        && listKeys.equals(other.listKeys);
  }

  @Override public int hashCode() {
    return Objects.hash(partitions, compositeKeys, subpartitions, listKeys);
  }

  private RoutingColumns(Set<String> partitions, Set<String> compositeKeys,
      Set<String> subpartitions, Set<String> listKeys) {
    this.partitions = Set.copyOf(partitions);
    this.compositeKeys = Set.copyOf(compositeKeys);
    this.subpartitions = Set.copyOf(subpartitions);
    this.listKeys = Set.copyOf(listKeys);
  }

  /** Whether the literal compared with a column stays as written. */
  @FunctionalInterface
  interface Kept {
    /**
     * Whether the literal stays.
     *
     * @param column the column compared with the literal
     * @param excludes whether the comparison is {@code <>} or {@code NOT IN}
     */
    boolean test(SqlIdentifier column, boolean excludes);
  }

  /** The routing columns of the ShardSet schemas under a connection's root schema. */
  static RoutingColumns of(SchemaPlus root) {
    final Set<String> partitions = new TreeSet<>();
    final Set<String> compositeKeys = new TreeSet<>();
    final Set<String> subpartitions = new TreeSet<>();
    final Set<String> listKeys = new TreeSet<>();
    for (ShardSchema schema : ShardSchemas.under(root)) {
      for (String name : schema.tableNames()) {
        final ShardTable table = schema.table(name);
        final TableSpec spec = table.spec();
        if (spec.partitionBy() != null) {
          partitions.add(normal(spec.partitionBy().column()));
          spec.shardKey().forEach(c -> compositeKeys.add(normal(c)));
        }
        if (spec.subpartitions() != null) {
          subpartitions.add(normal(spec.subpartitions().column()));
        }
        if (spec.method() == ShardingMethod.LIST) {
          spec.shardKey().forEach(c -> listKeys.add(normal(c)));
        }
      }
    }
    return new RoutingColumns(partitions, compositeKeys, subpartitions, listKeys);
  }

  /**
   * Which of a query's compared columns keep their literals.
   *
   * @param compared the columns the query compares with replaceable literals
   * @param severalTables whether the query reads more than one table
   */
  Kept kept(List<SqlIdentifier> compared, boolean severalTables) {
    final boolean restricted = severalTables && compared.stream().anyMatch(
        c -> partitions.contains(name(c)));
    return (c, excludes) -> {
      final String name = name(c);
      return partitions.contains(name) || subpartitions.contains(name)
          || restricted && compositeKeys.contains(name)
          || excludes && listKeys.contains(name);
    };
  }

  private static String name(SqlIdentifier column) {
    return column.isStar() ? "*" : normal(column.names.get(column.names.size() - 1));
  }

  private static String normal(String name) {
    return name.toUpperCase(Locale.ROOT);
  }
}
