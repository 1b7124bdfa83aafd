package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Decides whether the shards' sorted streams can be merged in order.
 *
 * <p>A merge is only right when every shard orders rows exactly as the merge's comparator
 * does. Numbers, dates, timestamps and booleans order alike everywhere; text orders by the
 * database's collation, which matches Java's code-point order only on H2 (and on PostgreSQL
 * with the "C" collation, which ShardSet does not assume), so text keys are merged only when
 * every shard is H2. Non-text keys are merged across kinds of database (H2 and PostgreSQL
 * shards in one model): each shard's SQL places NULLs explicitly in its own dialect, and the
 * values themselves order alike. When this says no, the sort runs above the scan instead.
 */
final class MergePolicy {
  private MergePolicy() {
  }

  static boolean canMerge(ShardScanSpec spec, RelCollation collation) {
    final boolean binaryText = allH2(spec.table());
    for (RelFieldCollation field : collation.getFieldCollations()) {
      final RelDataType type =
          spec.pushed().getRowType().getFieldList().get(field.getFieldIndex()).getType();
      if (SqlTypeFamily.CHARACTER.contains(type) && !binaryText) {
        return false;
      }
    }
    return true;
  }

  private static boolean allH2(ShardTable table) {
    for (int i = 0; i < table.shardCount(); i++) {
      if (!isH2(table.dialect(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether the dialect is H2's: built from metadata, it may not name its product. */
  static boolean isH2(SqlDialect dialect) {
    return dialect.getDatabaseProduct() == SqlDialect.DatabaseProduct.H2
        || dialect.getClass().getSimpleName().startsWith("H2");
  }
}
