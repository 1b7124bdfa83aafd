package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.routing.KeyDomain;
import io.shardset.routing.KeyType;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Which output field of a pushed tree is which shard key column of the scan's table.
 *
 * <p>Only a field that is a key column itself counts (passed through Filters, Sorts, group
 * keys and plain column references in Projects): a field computed from the key says nothing
 * about which shard holds the row. Through a co-located inner join, the key columns of the
 * joined table count too: the join condition makes them equal to the table's own.
 */
final class KeyColumns {
  /** A field that is a column of a table. */
  private record Origin(ShardTable table, int column) {
  }

  private final int[] keyColumnOfField;
  private final List<KeyType> keyTypes;
  private final BitSet integral;

  private KeyColumns(int[] keyColumnOfField, List<KeyType> keyTypes, BitSet integral) {
    this.keyColumnOfField = keyColumnOfField;
    this.keyTypes = keyTypes;
    this.integral = integral;
  }

  /** Maps the output fields of {@code pushed} to positions in {@code table}'s shard key. */
  static KeyColumns of(RelNode pushed, ShardTable table) {
    final @Nullable Origin[] origins = origins(pushed);
    final int[] result = new int[origins.length];
    for (int i = 0; i < origins.length; i++) {
      final Origin origin = origins[i];
      result[i] = origin == null || !origin.table().isColocatedWith(table)
          ? -1 : origin.table().keyColumns().indexOf(origin.column());
    }
    return new KeyColumns(result, table.keyTypes(),
        integralKeyColumns(table, pushed.getCluster().getTypeFactory()));
  }

  /** The key columns whose SQL type holds only integers. */
  private static BitSet integralKeyColumns(ShardTable table, RelDataTypeFactory typeFactory) {
    final BitSet integral = new BitSet();
    final List<RelDataTypeField> fields = table.getRowType(typeFactory).getFieldList();
    final List<Integer> keyColumns = table.keyColumns();
    for (int i = 0; i < keyColumns.size(); i++) {
      final RelDataType type = fields.get(keyColumns.get(i)).getType();
      if (SqlTypeName.INT_TYPES.contains(type.getSqlTypeName())
          || type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getScale() == 0) {
        integral.set(i);
      }
    }
    return integral;
  }

  /**
   * Maps the given fields of a row of {@code fieldCount} fields to a one-column key of type
   * {@code type}: a subpartition column, say, rather than the shard key.
   */
  static KeyColumns ofFields(int fieldCount, BitSet fields, KeyType type) {
    final int[] result = new int[fieldCount];
    for (int i = 0; i < fieldCount; i++) {
      result[i] = fields.get(i) ? 0 : -1;
    }
    return new KeyColumns(result, List.of(type), new BitSet());
  }

  /** The table column each output field is, or null for a computed field. */
  private static @Nullable Origin[] origins(RelNode rel) {
    if (rel instanceof TableScan scan) {
      final ShardTable table = scan.getTable().unwrap(ShardTable.class);
      final Origin[] result = new Origin[rel.getRowType().getFieldCount()];
      for (int i = 0; table != null && i < result.length; i++) {
        result[i] = new Origin(table, i);
      }
      return result;
    }
    if (rel instanceof Filter || rel instanceof Sort) {
      return origins(rel.getInput(0));
    }
    final Origin[] result = new Origin[rel.getRowType().getFieldCount()];
    if (rel instanceof Project project) {
      final Origin[] input = origins(project.getInput());
      final List<RexNode> exprs = project.getProjects();
      for (int i = 0; i < result.length; i++) {
        result[i] = exprs.get(i) instanceof RexInputRef ref ? input[ref.getIndex()] : null;
      }
    } else if (rel instanceof Aggregate aggregate) {
      // Group keys come first and are input columns; aggregate results are computed.
      final Origin[] input = origins(aggregate.getInput());
      final List<Integer> keys = aggregate.getGroupSet().asList();
      for (int i = 0; i < keys.size(); i++) {
        result[i] = input[keys.get(i)];
      }
    } else if (rel instanceof Join join) {
      final Origin[] left = origins(join.getLeft());
      System.arraycopy(left, 0, result, 0, left.length);
      if (join.getJoinType() == JoinRelType.INNER) {
        // An outer join's right side may be NULL where the left key is not.
        final Origin[] right = origins(join.getRight());
        System.arraycopy(right, 0, result, left.length, right.length);
      }
    }
    return result;
  }

  /** Whether the given output fields include every shard key column (so that rows with
   * equal values of those fields live on one shard). */
  boolean coverKey(Iterable<Integer> fields, int keySize) {
    final BitSet covered = new BitSet();
    for (int field : fields) {
      if (keyColumnOfField[field] >= 0) {
        covered.set(keyColumnOfField[field]);
      }
    }
    return keySize > 0 && covered.cardinality() == keySize;
  }

  /** The shard key position of an output field, or -1. */
  int keyColumn(int field) {
    return keyColumnOfField[field];
  }

  /** Whether a key column holds text, which shards order by their own collation. */
  boolean isText(int keyColumn) {
    final KeyType type = keyTypes.get(keyColumn);
    return type == KeyType.STRING || type == KeyType.CHAR;
  }

  /** Whether a key column holds only integers, so that its bounds can be narrowed to them. */
  boolean isIntegral(int keyColumn) {
    return integral.get(keyColumn);
  }

  /** A domain of a key column from plain Java bounds, normalized to the key's type (and to
   * integers, on an integral column).
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
    final KeyDomain domain = KeyDomain.of(normalized, includesNull);
    return isIntegral(keyColumn) ? domain.integral() : domain;
  }
}
