package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.routing.KeyDomain;
import io.shardset.routing.KeyType;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which output field of a pushed tree is which shard key column.
 *
 * <p>Only a field that is the key column itself counts (passed through Filters and plain
 * column references in Projects): a field computed from the key says nothing about which
 * shard holds the row.
 */
final class KeyColumns {
  private final int[] keyColumnOfField;
  private final List<KeyType> keyTypes;

  private KeyColumns(int[] keyColumnOfField, List<KeyType> keyTypes) {
    this.keyColumnOfField = keyColumnOfField;
    this.keyTypes = keyTypes;
  }

  /** Maps the output fields of {@code pushed} to positions in the table's shard key. */
  static KeyColumns of(RelNode pushed, ShardTable table) {
    final int[] tableColumns = tableColumns(pushed);
    final List<Integer> key = table.keyColumns();
    final int[] result = new int[tableColumns.length];
    for (int i = 0; i < tableColumns.length; i++) {
      result[i] = tableColumns[i] < 0 ? -1 : key.indexOf(tableColumns[i]);
    }
    return new KeyColumns(result, table.keyTypes());
  }

  /** The table column of each output field, or -1 for a computed field. */
  private static int[] tableColumns(RelNode rel) {
    if (rel instanceof TableScan) {
      final int[] identity = new int[rel.getRowType().getFieldCount()];
      Arrays.setAll(identity, i -> i);
      return identity;
    }
    if (rel instanceof Filter filter) {
      return tableColumns(filter.getInput());
    }
    if (rel instanceof Project project) {
      final int[] input = tableColumns(project.getInput());
      final List<RexNode> exprs = project.getProjects();
      final int[] result = new int[exprs.size()];
      for (int i = 0; i < result.length; i++) {
        result[i] = exprs.get(i) instanceof RexInputRef ref ? input[ref.getIndex()] : -1;
      }
      return result;
    }
    final int[] unknown = new int[rel.getRowType().getFieldCount()];
    Arrays.fill(unknown, -1);
    return unknown;
  }

  /** The shard key position of an output field, or -1. */
  int keyColumn(int field) {
    return keyColumnOfField[field];
  }

  /** A domain of a key column from plain Java bounds, normalized to the key's type.
   *
   * @throws IllegalArgumentException if a bound is not a value of the key's type */
  KeyDomain normalize(int keyColumn, List<KeyDomain.Interval> intervals,
      boolean includesNull) {
    final KeyType type = keyTypes.get(keyColumn);
    final List<KeyDomain.Interval> normalized = new ArrayList<>();
    for (KeyDomain.Interval i : intervals) {
      normalized.add(
          new KeyDomain.Interval(i.lower() == null ? null : type.normalize(i.lower()),
              i.lowerInclusive(), i.upper() == null ? null : type.normalize(i.upper()),
              i.upperInclusive()));
    }
    return KeyDomain.of(normalized, includesNull);
  }
}
