package io.shardset.calcite.plan;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;
import org.apache.calcite.linq4j.function.Predicate2;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Calcite's {@link EnumerableHashJoin} (inner, outer, semi and anti joins), except that the
 * rows it holds stay within the statement's sort memory and spill to temporary files beyond
 * it ({@link JoinMemory}): a join above the shards of a million wide rows on a column the
 * shards do not share never runs the JVM out of memory. Its code is Calcite's, with Calcite's
 * join methods replaced by {@link JoinMemory}'s, which take the same arguments and the
 * statement's root. Its cost is a hair below Calcite's join ({@link SpillingCost}).
 */
public final class EnumerableSpillingHashJoin extends EnumerableHashJoin {
  /** Calcite's methods and what they become. */
  private static final Map<Method, Method> SPILLING = Map.of(
      BuiltInMethod.HASH_JOIN.method, Types.lookupMethod(JoinMemory.class, "hashJoin",
          Enumerable.class, Enumerable.class, Function1.class, Function1.class,
          Function2.class, EqualityComparer.class, boolean.class, boolean.class,
          Predicate2.class, DataContext.class),
      BuiltInMethod.SEMI_JOIN.method, Types.lookupMethod(JoinMemory.class, "semiJoin",
          Enumerable.class, Enumerable.class, Function1.class, Function1.class,
          EqualityComparer.class, Predicate2.class, DataContext.class),
      BuiltInMethod.ANTI_JOIN.method, Types.lookupMethod(JoinMemory.class, "antiJoin",
          Enumerable.class, Enumerable.class, Function1.class, Function1.class,
          EqualityComparer.class, Predicate2.class, DataContext.class));

  private EnumerableSpillingHashJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left,
      RelNode right, RexNode condition, Set<CorrelationId> variablesSet,
      JoinRelType joinType) {
    super(cluster, traits, left, right, condition, variablesSet, joinType);
  }

  /** The spilling form of {@code join}, with its traits. */
  static EnumerableSpillingHashJoin of(EnumerableHashJoin join) {
    return new EnumerableSpillingHashJoin(join.getCluster(), join.getTraitSet(),
        join.getLeft(), join.getRight(), join.getCondition(), join.getVariablesSet(),
        join.getJoinType());
  }

  /** Whether Calcite implements the join with one of the methods this replaces. */
  static boolean spills(JoinRelType joinType) {
    return joinType != JoinRelType.LEFT_MARK && joinType != JoinRelType.ASOF
        && joinType != JoinRelType.LEFT_ASOF;
  }

  @Override public EnumerableHashJoin copy(RelTraitSet traitSet, RexNode condition,
      RelNode left, RelNode right, JoinRelType joinType, boolean semiJoinDone) {
    return new EnumerableSpillingHashJoin(getCluster(), traitSet, left, right, condition,
        variablesSet, joinType);
  }

  /** Explains itself as the join it stands for. */
  @Override public String getRelTypeName() {
    return EnumerableHashJoin.class.getSimpleName();
  }

  @Override public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner,
      RelMetadataQuery mq) {
    return SpillingCost.below(super.computeSelfCost(planner, mq));
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final Result calcite = super.implement(implementor, pref);
    final Expression root = implementor.getRootExpression();
    return new Result(calcite.block.accept(new Shuttle() {
      @Override public Expression visit(MethodCallExpression call,
          @Nullable Expression target, List<Expression> arguments) {
        final Method spilling = SPILLING.get(call.method);
        if (spilling == null) {
          return super.visit(call, target, arguments);
        }
        final List<Expression> all = new ArrayList<>();
        if (target != null) {
          all.add(target);
        }
        all.addAll(arguments);
        all.add(root);
        return Expressions.call(spilling, all);
      }
    }), calcite.physType, calcite.format);
  }
}
