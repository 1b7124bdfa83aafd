package io.shardset.calcite.plan;

import io.shardset.routing.KeyCondition;
import io.shardset.routing.KeyDomain;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUnknownAs;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.TimestampString;

import com.google.common.collect.BoundType;
import com.google.common.collect.Range;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Translates a pushed filter condition into the routing library's {@link KeyCondition}: the
 * part of the condition that constrains the shard key, with literals and query parameters.
 *
 * <p>Anything it does not understand becomes {@link KeyCondition.Any} (all shards), so the
 * translation can only ever widen the set of target shards, never lose rows.
 */
final class KeyConditionTranslator {
  private final KeyColumns keyColumns;
  private final RelOptCluster cluster;

  private KeyConditionTranslator(KeyColumns keyColumns, RelOptCluster cluster) {
    this.keyColumns = keyColumns;
    this.cluster = cluster;
  }

  static KeyCondition translate(RexNode condition, KeyColumns keyColumns,
      RelOptCluster cluster) {
    return new KeyConditionTranslator(keyColumns, cluster).translate(condition);
  }

  private KeyCondition translate(RexNode node) {
    if (node.isAlwaysFalse()) {
      return new KeyCondition.Or(List.of());
    }
    if (node instanceof RexInputRef ref) {
      // A BOOLEAN key used as the condition itself: "WHERE FLAG".
      return booleanKey(ref, true);
    }
    if (!(node instanceof RexCall call)) {
      return KeyCondition.any();
    }
    switch (call.getKind()) {
    case NOT:
      return call.getOperands().get(0) instanceof RexInputRef ref
          ? booleanKey(ref, false) : KeyCondition.any();
    case AND:
      return KeyConditions.and(translateAll(call.getOperands()));
    case OR:
      return KeyConditions.or(translateAll(call.getOperands()));
    case SEARCH:
      return search(call);
    case IS_NULL:
    case IS_NOT_NULL: {
      final int key = keyColumn(call.getOperands().get(0));
      if (key < 0) {
        return KeyCondition.any();
      }
      return new KeyCondition.Restrict(key,
          call.getKind() == SqlKind.IS_NULL ? KeyDomain.nullOnly() : KeyDomain.notNull());
    }
    case EQUALS:
    case LESS_THAN:
    case LESS_THAN_OR_EQUAL:
    case GREATER_THAN:
    case GREATER_THAN_OR_EQUAL:
      return compare(call);
    default:
      return KeyCondition.any();
    }
  }

  /** {@code FLAG} or {@code NOT FLAG} on a BOOLEAN key column. */
  private KeyCondition booleanKey(RexInputRef ref, boolean value) {
    final int key = keyColumn(ref);
    return key < 0 || ref.getType().getSqlTypeName() != SqlTypeName.BOOLEAN
        ? KeyCondition.any()
        : new KeyCondition.Compare(key, KeyCondition.Op.EQ, new KeyCondition.Literal(value));
  }

  private List<KeyCondition> translateAll(List<RexNode> nodes) {
    final List<KeyCondition> result = new ArrayList<>();
    for (RexNode n : nodes) {
      result.add(translate(n));
    }
    return result;
  }

  /** {@code key <op> value} or {@code value <op> key}. */
  private KeyCondition compare(RexCall call) {
    final RexNode left = call.getOperands().get(0);
    final RexNode right = call.getOperands().get(1);
    int key = keyColumn(left);
    RexNode value = right;
    SqlKind kind = call.getKind();
    if (key < 0) {
      key = keyColumn(right);
      value = left;
      kind = kind.reverse();
    }
    if (key < 0) {
      return KeyCondition.any();
    }
    final KeyCondition.Operand operand = operand(value);
    if (operand == null || kind != SqlKind.EQUALS && keyColumns.isText(key)) {
      // Shards order text by their own collation, which routing cannot know.
      return KeyCondition.any();
    }
    return new KeyCondition.Compare(key, op(kind), operand, keyColumns.isIntegral(key));
  }

  private static KeyCondition.Op op(SqlKind kind) {
    switch (kind) {
    case EQUALS:
      return KeyCondition.Op.EQ;
    case LESS_THAN:
      return KeyCondition.Op.LT;
    case LESS_THAN_OR_EQUAL:
      return KeyCondition.Op.LE;
    case GREATER_THAN:
      return KeyCondition.Op.GT;
    case GREATER_THAN_OR_EQUAL:
      return KeyCondition.Op.GE;
    default:
      throw new AssertionError(kind);
    }
  }

  /** A literal, a literal cast to the key's type, or a query parameter; null otherwise. */
  private KeyCondition.@Nullable Operand operand(RexNode value) {
    if (value instanceof RexDynamicParam param) {
      return new KeyCondition.Param(param.getIndex());
    }
    final RexLiteral literal = literal(value);
    if (literal == null || literal.isNull()) {
      // "key = NULL" matches nothing; leave it to the condition's own evaluation.
      return literal == null ? null : new KeyCondition.Literal(null);
    }
    final Object javaValue = javaValue(literal);
    return javaValue == null ? null : new KeyCondition.Literal(javaValue);
  }

  /** The literal itself, or a constant expression (such as a CAST of a literal) reduced to
   * one with Calcite's own semantics. */
  private @Nullable RexLiteral literal(RexNode value) {
    if (value instanceof RexLiteral literal) {
      return literal;
    }
    if (!RexUtil.isConstant(value) || RexUtil.containsInputRef(value)) {
      return null;
    }
    final RexExecutor executor = cluster.getPlanner().getExecutor();
    if (executor == null) {
      return null;
    }
    final RexNode reduced = new RexSimplify(cluster.getRexBuilder(), RelOptPredicateList.EMPTY,
        executor).simplifyUnknownAs(value, RexUnknownAs.UNKNOWN);
    return reduced instanceof RexLiteral literal ? literal : null;
  }

  /** {@code SEARCH(key, Sarg)}: IN lists, ranges, BETWEEN, NOT IN and their combinations. */
  private KeyCondition search(RexCall call) {
    final int key = keyColumn(call.getOperands().get(0));
    if (key < 0 || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
      return KeyCondition.any();
    }
    final Sarg<?> sarg = literal.getValueAs(Sarg.class);
    if (sarg == null) {
      return KeyCondition.any();
    }
    final List<KeyDomain.Interval> intervals = new ArrayList<>();
    for (Range<?> range : sarg.rangeSet.asRanges()) {
      final Comparable<?> lower = range.hasLowerBound() ? javaValue(range.lowerEndpoint()) : null;
      final Comparable<?> upper = range.hasUpperBound() ? javaValue(range.upperEndpoint()) : null;
      if (range.hasLowerBound() && lower == null || range.hasUpperBound() && upper == null) {
        return KeyCondition.any();
      }
      intervals.add(new KeyDomain.Interval(lower,
          range.hasLowerBound() && range.lowerBoundType() == BoundType.CLOSED,
          upper, range.hasUpperBound() && range.upperBoundType() == BoundType.CLOSED));
    }
    if (keyColumns.isText(key) && !sarg.isPoints() && !sarg.isComplementedPoints()) {
      return KeyCondition.any(); // a text range: shards compare by their own collation
    }
    try {
      return new KeyCondition.Restrict(key,
          keyColumns.normalize(key, intervals, sarg.nullAs == RexUnknownAs.TRUE));
    } catch (IllegalArgumentException e) {
      return KeyCondition.any(); // a value the key type cannot hold: stay safe, read all
    }
  }

  /** The shard key position of an expression: the key column itself, or the key column under
   * a cast that cannot change its value; -1 otherwise. */
  private int keyColumn(RexNode node) {
    if (node instanceof RexInputRef ref) {
      return keyColumns.keyColumn(ref.getIndex());
    }
    if (node.getKind() == SqlKind.CAST && node instanceof RexCall cast
        && LosslessCasts.isLossless(cast.getOperands().get(0).getType(), cast.getType())) {
      return keyColumn(cast.getOperands().get(0));
    }
    return -1;
  }

  /** The plain Java value of a literal, in the form routing normalizes; null if the type
   * cannot be a shard key. */
  private static @Nullable Comparable<?> javaValue(RexLiteral literal) {
    switch (literal.getTypeName().getFamily() == null ? SqlTypeName.ANY
        : literal.getTypeName()) {
    case TINYINT:
    case SMALLINT:
    case INTEGER:
    case BIGINT:
    case DECIMAL:
      return literal.getValueAs(BigDecimal.class);
    case CHAR:
    case VARCHAR:
      return literal.getValueAs(String.class);
    case DATE:
      return javaValue(literal.getValueAs(DateString.class));
    case TIMESTAMP:
      return javaValue(literal.getValueAs(TimestampString.class));
    case BOOLEAN:
      return literal.getValueAs(Boolean.class);
    default:
      return null;
    }
  }

  /** Converts a Calcite literal value to the plain Java value routing normalizes. */
  private static @Nullable Comparable<?> javaValue(@Nullable Object value) {
    if (value instanceof BigDecimal || value instanceof Boolean || value instanceof String) {
      return (Comparable<?>) value;
    }
    if (value instanceof NlsString nls) {
      return nls.getValue();
    }
    if (value instanceof DateString date) {
      return date.getDaysSinceEpoch();
    }
    if (value instanceof TimestampString timestamp) {
      return timestamp.getMillisSinceEpoch();
    }
    if (value instanceof Number number) {
      return new BigDecimal(number.toString());
    }
    return null;
  }
}
