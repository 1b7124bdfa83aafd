package io.shardset.calcite.plan;

import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

import java.util.Set;

/**
 * Calcite's field trimmer, which also narrows a {@link ShardScan} to the columns read above
 * it, as Calcite's narrows a table scan. When joins are ordered heuristically
 * ({@link ShardPrograms}) the tables are shard scans before fields are trimmed; without this,
 * every shard would be asked for every column of every table the statement joins. (Public
 * because the trimmer calls its variants by reflection.)
 */
public final class ShardFieldTrimmer extends RelFieldTrimmer {
  private final RelBuilder builder;

  /** Creates a trimmer that builds with {@code builder}. */
  public ShardFieldTrimmer(RelBuilder builder) {
    super(null, builder);
    this.builder = builder;
  }

  /** The scan under a projection of the fields used; Calcite's trimmer finds this method
   * by reflection, as the variant for {@link ShardScan}. */
  public TrimResult trimFields(ShardScan scan, ImmutableBitSet fieldsUsed,
      Set<RelDataTypeField> extraFields) {
    final int fieldCount = scan.getRowType().getFieldCount();
    if (fieldsUsed.isEmpty()) {
      return dummyProject(fieldCount, scan);
    }
    if (fieldsUsed.equals(ImmutableBitSet.range(fieldCount))) {
      return result(scan, Mappings.createIdentity(fieldCount));
    }
    final RelBuilder projected = builder.push(scan).project(builder.fields(fieldsUsed.asList()));
    return result(projected.build(), createMapping(fieldsUsed, fieldCount));
  }
}
