package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.util.NlsString;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Reduces constant expressions at plan time as the planner's own executor does, except those
 * over text that is not plain printable ASCII, which stay as written.
 *
 * <p>Folding {@code UPPER('ß')} in Java gives {@code 'SS'}, where PostgreSQL and MariaDB keep
 * {@code 'ß'}; pushed folded, {@code UPPER(s) = UPPER('ß')} finds nothing on those shards
 * although each database alone finds the row. Left as written, every shard computes both sides
 * the same way, and above the shards Calcite computes it at run time. Calcite's reduction also
 * loses carriage returns in string constants, another reason to leave such text alone.
 */
final class LiteralPreservingExecutor implements RexExecutor {
  private final RexExecutor delegate;

  private LiteralPreservingExecutor(RexExecutor delegate) {
    this.delegate = delegate;
  }

  /** Makes the planner reduce constants through this executor (once per planner). */
  static void install(RelOptPlanner planner) {
    final RexExecutor current = planner.getExecutor();
    if (!(current instanceof LiteralPreservingExecutor)) {
      planner.setExecutor(
          new LiteralPreservingExecutor(current == null ? RexUtil.EXECUTOR : current));
    }
  }

  @Override public void reduce(RexBuilder rexBuilder, List<RexNode> constExps,
      List<RexNode> reducedValues) {
    final List<RexNode> reducible = new ArrayList<>();
    for (RexNode e : constExps) {
      if (!hasUnsafeText(e)) {
        reducible.add(e);
      }
    }
    final List<RexNode> reduced = new ArrayList<>();
    if (!reducible.isEmpty()) {
      delegate.reduce(rexBuilder, reducible, reduced);
    }
    final Iterator<RexNode> next = reduced.iterator();
    for (RexNode e : constExps) {
      reducedValues.add(hasUnsafeText(e) ? e : next.next());
    }
  }

  /** Whether the expression has a text literal with a character outside printable ASCII. */
  static boolean hasUnsafeText(RexNode e) {
    if (e instanceof RexLiteral literal) {
      return SqlTypeFamily.CHARACTER.contains(literal.getType())
          && !isPrintableAscii(literal.getValueAs(NlsString.class));
    }
    return e instanceof RexCall call
        && call.getOperands().stream().anyMatch(LiteralPreservingExecutor::hasUnsafeText);
  }

  private static boolean isPrintableAscii(@Nullable NlsString text) {
    if (text == null) {
      return true;
    }
    final String value = text.getValue();
    for (int i = 0; i < value.length(); i++) {
      final char c = value.charAt(i);
      if (c < 32 || c > 126) {
        return false;
      }
    }
    return true;
  }
}
