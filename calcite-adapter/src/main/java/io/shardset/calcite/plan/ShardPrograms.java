package io.shardset.calcite.plan;

import io.shardset.calcite.guard.ShardHints;

import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.TopDownGeneralDecorrelator;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.Holder;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * ShardSet's planning program: Calcite's standard program ({@link Programs#standard()}) with
 * a heuristic join-ordering phase ahead of the cost-based one for statements of
 * {@value #HEURISTIC_JOINS} or more joins.
 *
 * <p>Calcite's cost-based planner orders joins by trying every order (join commutation and
 * association), which takes seconds for four joins and does not finish in minutes for eight.
 * For such statements the joins are first gathered by {@link ShardMultiJoinRule}, which keeps
 * together every pair of tables whose join the shards can run, and ordered by Calcite's
 * {@code LoptOptimizeJoinRule} on the tables' row counts; the cost-based planner then plans
 * everything else with the join order fixed. Even a three-way join is ordered so: the
 * cost-based planner, trying its orders, fires the shard rules on each and took 70 to 95 ms
 * for a new three-way join shape, against 11 to 14 ms this way. A statement of one join is
 * planned as Calcite plans it.
 */
public final class ShardPrograms {
  /** The fewest joins for which the join order is chosen heuristically. */
  public static final int HEURISTIC_JOINS = 2;

  /** Bounds the heuristic phase's rule firings, in case rules undo one another. */
  private static final int MATCH_LIMIT = 10_000;

  /** The rules that reorder joins, removed from the cost-based planner once the heuristic
   * phase has ordered the joins. */
  private static final List<RelOptRule> REORDERING_RULES = List.of(CoreRules.JOIN_COMMUTE,
      CoreRules.JOIN_ASSOCIATE, JoinPushThroughJoinRule.LEFT, JoinPushThroughJoinRule.RIGHT);

  private ShardPrograms() {
  }

  /** The program for statements over ShardSet schemas. */
  public static Program standard() {
    return Programs.sequence(
        ShardPrograms::checkHints,
        ShardPrograms::existsAsJoins,
        Programs.subQuery(DefaultRelMetadataProvider.INSTANCE),
        ShardPrograms::decorrelate,
        Programs.measure(DefaultRelMetadataProvider.INSTANCE),
        ShardPrograms::orderJoins,
        ShardPrograms::trimFields,
        ShardPrograms::costBased,
        Programs.calc(DefaultRelMetadataProvider.INSTANCE),
        ShardPrograms::bindJoins);
  }

  /** Writes correlated {@code [NOT] EXISTS} subqueries of statements over ShardSet tables as
   * semi and anti joins of the table they correlate with ({@link ExistsAsJoins}). */
  private static RelNode existsAsJoins(RelOptPlanner planner, RelNode rel,
      RelTraitSet requiredOutputTraits, List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return readsShardTable(rel) ? ExistsAsJoins.rewrite(rel) : rel;
  }

  /** Turns joins of the physical plan into bind joins where they gain ({@link BindJoins}). */
  private static RelNode bindJoins(RelOptPlanner planner, RelNode rel,
      RelTraitSet requiredOutputTraits, List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return BindJoins.rewrite(rel);
  }

  /**
   * Makes {@code jdbc:calcite:} and {@code jdbc:shardset:} connections of this class loader
   * plan statements that read a ShardSet table with {@link #standard()}, and any other
   * statement with Calcite's standard program, as before. Calcite's driver takes its program
   * from {@link Hook#PROGRAM} alone, so this adds a process-wide handler, once; a handler a
   * test adds to its own thread runs after it and still decides. {@code jdbc:shardset:}
   * connections, whose preparation is Calcite's apart from its plan cache, find their program
   * the same way.
   */
  public static void installInCalcite() {
    CalciteHook.ensureInstalled();
  }

  /** The hook's handler, added once, when this class is first used, and never removed: it
   * serves every jdbc:calcite: connection of the class loader. */
  private static final class CalciteHook {
    static {
      Hook.PROGRAM.add((Consumer<Holder<@Nullable Program>>) holder -> {
        if (holder.get() == null) {
          holder.set(standard());
        }
      });
    }

    private CalciteHook() {
    }

    /** Does nothing but make sure the class, and with it the handler, is initialised. */
    static void ensureInstalled() {
      // The static initialiser is the installation.
    }
  }

  /**
   * Refuses the writes a hint cannot restrict ({@link ScanHints#checkWrites}), and gives the
   * cluster back the hint table the statement was converted with: Calcite's preparation trims
   * the converted tree's fields with a second converter it builds without the configuration
   * hook, and a converter sets its own (empty) hint table on the cluster; the planners would
   * then look up the hints the tree carries in that table, and fail.
   */
  private static RelNode checkHints(RelOptPlanner planner, RelNode rel,
      RelTraitSet requiredOutputTraits, List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    ScanHints.checkWrites(rel);
    if (rel.getCluster().getHintStrategies() == HintStrategyTable.EMPTY) {
      rel.getCluster().setHintStrategies(ShardHints.STRATEGIES);
    }
    return rel;
  }

  /** The heuristic phase: joins gathered and ordered, when there are enough of them. */
  private static RelNode orderJoins(RelOptPlanner planner, RelNode rel,
      RelTraitSet requiredOutputTraits, List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    // Subqueries are joins by now. A statement that reads no ShardSet table (a jdbc:calcite:
    // connection may have other schemas) is planned exactly as Calcite plans it.
    if (RelOptUtil.countJoins(rel) < HEURISTIC_JOINS || !readsShardTable(rel)) {
      return rel;
    }
    // The shard rules below reduce constants through the planner's executor.
    LiteralPreservingExecutor.install(planner);
    for (RelOptRule rule : REORDERING_RULES) {
      planner.removeRule(rule);
    }
    final HepProgram program = HepProgram.builder()
        .addMatchLimit(MATCH_LIMIT)
        // Conditions where the joins can use them, single-table ones on their tables.
        // (Not Calcite's transitive-predicate rule: in a Hep planner it fires again and again
        // over the same joins, 11 to 30 s for eight tables; co-located tables joined by
        // ShardMultiJoinRule share their key's pruning anyway, and the cost-based phase infers
        // the rest over the ordered joins.)
        .addRuleCollection(List.of(ShardRules.FILTER_FACTORS, CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH, CoreRules.FILTER_MERGE))
        // Constant expressions folded, so that a filter such as TPC-H Q5's
        // o_orderdate < DATE '1994-01-01' + INTERVAL '1' YEAR goes into its shard scan: a
        // filter left above a scan keeps the scan out of the co-located joins below.
        .addRuleInstance(CoreRules.FILTER_REDUCE_EXPRESSIONS)
        // Shard scans with their filters, so that pruning can decide which joins push, and
        // with projections and aggregates, so that a subquery grouped by its shard key (TPC-H
        // Q18's IN) is a shard scan that joins co-located, not a relation the join order
        // may put above another table's join; and semi and anti joins the shards run (an
        // EXISTS on a co-located table, TPC-H Q21's), one table to the join order.
        .addRuleCollection(List.of(ShardRules.TABLE_SCAN, ShardRules.FILTER,
            ShardRules.PROJECT, ShardRules.AGGREGATE, ShardRules.SEMI_JOIN))
        .addMatchOrder(HepMatchOrder.TOP_DOWN)
        .addRuleInstance(ShardRules.MULTI_JOIN)
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
        .build();
    // The join order, and the cost-based phase after it (the cluster keeps the provider),
    // estimate joins by their columns' distinct values where the shards' statistics say.
    return Programs.of(program, true, ShardMetadata.PROVIDER)
        .run(planner, rel, requiredOutputTraits, materializations, lattices);
  }

  private static boolean readsShardTable(RelNode rel) {
    final boolean[] found = {false};
    new RelVisitor() {
      @Override public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        found[0] |= node instanceof ShardTableScan;
        super.visit(node, ordinal, parent);
      }
    }.go(rel);
    return found[0];
  }

  /** Calcite's decorrelation, as its standard program runs it. */
  private static RelNode decorrelate(RelOptPlanner planner, RelNode rel,
      RelTraitSet requiredOutputTraits, List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    final CalciteConnectionConfig config = planner.getContext()
        .maybeUnwrap(CalciteConnectionConfig.class).orElse(CalciteConnectionConfig.DEFAULT);
    if (!config.forceDecorrelate()) {
      return rel;
    }
    final RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null);
    return config.topDownGeneralDecorrelationEnabled()
        ? TopDownGeneralDecorrelator.decorrelateQuery(rel, builder)
        : RelDecorrelator.decorrelateQuery(rel, builder);
  }

  /** Calcite's removal of the fields no one reads, as its standard program runs it, also
   * from the shard scans the heuristic phase made. */
  private static RelNode trimFields(RelOptPlanner planner, RelNode rel,
      RelTraitSet requiredOutputTraits, List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return new ShardFieldTrimmer(RelFactories.LOGICAL_BUILDER.create(rel.getCluster(), null))
        .trim(rel);
  }

  /** The cost-based phase, as Calcite's standard program runs it. */
  private static RelNode costBased(RelOptPlanner planner, RelNode rel,
      RelTraitSet requiredOutputTraits, List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    materializations.forEach(planner::addMaterialization);
    lattices.forEach(planner::addLattice);
    planner.setRoot(rel);
    final RelNode root = rel.getTraitSet().equals(requiredOutputTraits) ? rel
        : planner.changeTraits(rel, requiredOutputTraits);
    planner.setRoot(root);
    return Objects.requireNonNull(planner.chooseDelegate().findBestExp(),
        "could not implement the statement");
  }
}
