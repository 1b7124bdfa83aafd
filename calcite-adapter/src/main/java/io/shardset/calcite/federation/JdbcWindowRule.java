package io.shardset.calcite.federation;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalWindow;

/**
 * Rule that turns a {@link LogicalWindow} over a JDBC schema's rows into a {@link JdbcWindow}
 * of the same schema, when its frames are bounded by UNBOUNDED and CURRENT ROW only: Calcite
 * 1.42's SQL writer fails on an offset such as {@code 1 PRECEDING} (a window constant, which it
 * looks up among the input's fields), so such windows stay above the database.
 */
public final class JdbcWindowRule extends ConverterRule {
  private JdbcWindowRule(Config config) {
    super(config);
  }

  /** The rule for one JDBC convention. */
  public static JdbcWindowRule create(JdbcConvention out) {
    return Config.INSTANCE
        .withConversion(LogicalWindow.class, JdbcWindowRule::hasNoOffsets, Convention.NONE,
            out, "JdbcWindowRule")
        .withRuleFactory(JdbcWindowRule::new)
        .toRule(JdbcWindowRule.class);
  }

  private static boolean hasNoOffsets(Window window) {
    return window.groups.stream().allMatch(group ->
        group.lowerBound.getOffset() == null && group.upperBound.getOffset() == null);
  }

  @Override public RelNode convert(RelNode rel) {
    final LogicalWindow window = (LogicalWindow) rel;
    final RelNode input = window.getInput();
    return new JdbcWindow(window.getCluster(), window.getTraitSet().replace(out),
        convert(input, input.getTraitSet().replace(out)), window.getConstants(),
        window.getRowType(), window.groups);
  }
}
