package io.shardset.calcite.relations;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names a system table's filters ask for: each condition {@code column = 'name'} (either
 * way round, in a conjunction) gives its column's name. Other conditions narrow nothing here;
 * Calcite applies every filter to the rows anyway.
 */
final class SystemTableFilters {
  private SystemTableFilters() {
  }

  /** The name each column must hold, by column name. */
  static Map<String, String> names(List<RexNode> filters, List<String> columns) {
    final Map<String, String> names = new HashMap<>();
    for (RexNode filter : filters) {
      for (RexNode condition : RexUtil.flattenAnd(List.of(filter))) {
        if (condition.getKind() != SqlKind.EQUALS) {
          continue;
        }
        final List<RexNode> operands = ((RexCall) condition).getOperands();
        final RexNode left = RexUtil.removeCast(operands.get(0));
        final RexNode right = RexUtil.removeCast(operands.get(1));
        if (left instanceof RexInputRef ref && right instanceof RexLiteral literal) {
          put(names, columns.get(ref.getIndex()), literal);
        } else if (right instanceof RexInputRef ref && left instanceof RexLiteral literal) {
          put(names, columns.get(ref.getIndex()), literal);
        }
      }
    }
    return names;
  }

  private static void put(Map<String, String> names, String column, RexLiteral literal) {
    final String name = literal.getValueAs(String.class);
    if (name != null) {
      names.put(column, name);
    }
  }
}
