package io.shardset.calcite.plan;

import io.shardset.calcite.runtime.BindColumn;
import io.shardset.calcite.runtime.BindJoinKeys;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Turns joins above the shards into bind joins where one side is small and the other a shard
 * scan of many rows: the small side is read first and its distinct keys go into the scan's
 * shard SQL as a key list ({@link BindJoinKeys}, {@link EnumerableBindKeys}), so that the
 * shards send only the rows that can join, instead of the whole table (TPC-H's Q17 joins a
 * few PART rows with all of LINEITEM). The join itself stays as planned, above both; a side
 * that turns out larger than the limits at execution leaves the scan as planned.
 *
 * <p>Runs on the physical plan, after Volcano, and keeps the plan's shape. It decides on the
 * tables' row counts, not on the planner's estimates of joins (which for a join pushed into
 * the shards can be off by orders of magnitude): the small side must filter what it reads, and
 * the scan's tables hold many times more rows than the small side's; the limits at execution
 * ({@link #MAX_KEYS} keys, {@link #MAX_ROWS} rows) catch a side that is not small after all. A scan is filtered only where rows without a match on the other
 * side cannot change the join's result: either side of an inner or semi join, the side a left
 * or right outer join does not preserve, the right side of an anti join; and only by a key
 * compared with {@code =} (never {@code IS NOT DISTINCT FROM}, where nulls match) whose type
 * the shards compare as ShardSet does.
 */
public final class BindJoins {
  /** The most distinct keys a scan is sent: the small side's estimate, and then its rows. */
  static final int MAX_KEYS = 50_000;
  /** The most rows of the small side kept to read once. */
  static final int MAX_ROWS = 100_000;
  /**
   * How many times more rows the scan's tables must hold than the small side's. Low: the
   * small side filters its tables by an unknown share, and a wrong guess costs little (the
   * limits stop reading a side that is not small after a few thousand keys).
   */
  private static final double RATIO = 2;
  /** The fewest rows the scan's tables must hold to be worth a key list. */
  private static final double MIN_SCAN_ROWS = 1_000;
  private static final Set<SqlTypeName> KEY_TYPES = Set.of(SqlTypeName.TINYINT,
      SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DECIMAL,
      SqlTypeName.CHAR, SqlTypeName.VARCHAR, SqlTypeName.DATE);

  private BindJoins() {
  }

  /** The plan with its joins turned into bind joins where they gain. */
  public static RelNode rewrite(RelNode plan) {
    return plan.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        final RelNode visited = super.visit(other);
        return visited instanceof Join join && visited instanceof EnumerableRel
            ? bind(join) : visited;
      }
    });
  }

  /**
   * A side of a join that a key list can filter: a shard scan, under calculations, sorts
   * (not limits: a limit over fewer rows keeps others), groupings by the key and joins that
   * keep the scan's rows as they are.
   *
   * @param column the scan's column that the side's key is
   * @param rebuild the side over another scan
   */
  private record Scanned(EnumerableShardScan scan, int column,
      UnaryOperator<RelNode> rebuild) {
  }

  /**
   * A way to bind a join: the small side, its key, and the scan of the other side.
   *
   * @param keys the estimated number of distinct keys the small side hands over
   */
  private record Candidate(int smallSide, int smallKey, Scanned scanned, double keys) {
  }

  private static RelNode bind(Join join) {
    final List<Integer> leftKeys = new ArrayList<>();
    final List<Integer> rightKeys = new ArrayList<>();
    final List<Boolean> filterNulls = new ArrayList<>();
    // Conditions other than key equalities stay the join's: a row they reject is one the
    // key list could only have kept.
    RelOptUtil.splitJoinCondition(join.getLeft(), join.getRight(), join.getCondition(),
        leftKeys, rightKeys, filterNulls, new ArrayList<>());
    if (leftKeys.isEmpty()) {
      return join;
    }
    final RelMetadataQuery mq = join.getCluster().getMetadataQuery();
    Candidate best = null;
    for (int pair = 0; pair < leftKeys.size(); pair++) {
      if (!filterNulls.get(pair)) {
        continue;
      }
      for (int scanSide = 0; scanSide < 2; scanSide++) {
        if (!filterable(join.getJoinType(), scanSide)) {
          continue;
        }
        final int smallSide = 1 - scanSide;
        final Candidate candidate = candidate(join, mq, smallSide,
            (smallSide == 0 ? leftKeys : rightKeys).get(pair),
            (scanSide == 0 ? leftKeys : rightKeys).get(pair));
        if (candidate != null && (best == null || candidate.keys() < best.keys())) {
          best = candidate;
        }
      }
    }
    if (best == null) {
      return join;
    }
    final BindJoinKeys keys = new BindJoinKeys(MAX_KEYS, MAX_ROWS);
    final Scanned scanned = best.scanned();
    final RelNode small = EnumerableBindKeys.create(join.getInput(best.smallSide()), keys,
        best.smallKey());
    final EnumerableShardScan scan = scanned.scan();
    final int column = scanned.column();
    final RelNode bound = scanned.rebuild().apply(scan.withBind(new BindColumn(keys, column,
        scan.getRowType().getFieldList().get(column).getType().getSqlTypeName(),
        scan.spec().isOneColumnShardKey(column))));
    return join.copy(join.getTraitSet(),
        best.smallSide() == 0 ? List.of(small, bound) : List.of(bound, small));
  }

  /** Whether rows of the given side (0 left, 1 right) without a match are not needed. */
  private static boolean filterable(JoinRelType type, int side) {
    switch (type) {
    case INNER:
    case SEMI:
      return true;
    case LEFT:
    case ANTI:
      return side == 1;
    case RIGHT:
      return side == 0;
    default:
      return false;
    }
  }

  /** Whether each row of a join's output comes from one row of the input (0 left, 1 right)
   * unchanged, never from a row the join adds nulls for. */
  private static boolean keepsRowsOf(JoinRelType type, int input) {
    switch (type) {
    case INNER:
      return true;
    case LEFT:
    case SEMI:
    case ANTI:
      return input == 0;
    case RIGHT:
      return input == 1;
    default:
      return false;
    }
  }

  private static @Nullable Candidate candidate(Join join, RelMetadataQuery mq, int smallSide,
      int smallKey, int scanKey) {
    final Scanned scanned = scanned(join.getInput(1 - smallSide), scanKey);
    if (scanned == null || !KEY_TYPES.contains(scanned.scan().getRowType().getFieldList()
        .get(scanned.column()).getType().getSqlTypeName())) {
      return null;
    }
    final RelNode small = join.getInput(smallSide);
    final double scanTableRows = tableRows(scanned.scan());
    if (!filtered(small) || scanTableRows < MIN_SCAN_ROWS
        || scanTableRows < RATIO * tableRows(small)) {
      return null;
    }
    final Double keys = mq.getDistinctRowCount(small, ImmutableBitSet.of(smallKey), null);
    return new Candidate(smallSide, smallKey, scanned, keys == null ? MAX_KEYS : keys);
  }

  /**
   * Whether a side keeps only some rows of what it reads: a filter, or a join condition
   * beyond key equalities ({@link #filters}), in its shard SQL or above. A side that reads
   * whole tables (every supplier, say) holds every key the other side's rows refer to, and a
   * key list of them would keep every row.
   */
  private static boolean filtered(RelNode side) {
    final boolean[] found = {false};
    new RelVisitor() {
      @Override public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        if (node instanceof Filter
            || node instanceof EnumerableCalc calc && calc.getProgram().getCondition() != null
            || node instanceof Join join && filters(join)) {
          found[0] = true;
        } else if (node instanceof EnumerableShardScan scan) {
          visit(scan.spec().pushed(), 0, node);
        }
        super.visit(node, ordinal, parent);
      }
    }.go(side);
    return found[0];
  }

  /** Whether an inner join's condition tests more than its keys: TPC-H Q07's two nations,
   * named in the condition that pairs them ({@code n1.N_NAME = 'FRANCE' AND n2.N_NAME =
   * 'GERMANY' OR ...}). */
  private static boolean filters(Join join) {
    return join.getJoinType() == JoinRelType.INNER
        && !join.analyzeCondition().getRemaining(join.getCluster().getRexBuilder())
            .isAlwaysTrue();
  }

  /**
   * The rows of the largest table a side reads from the shards whole; 0 when it reads none. A
   * scan that a bind join below filters by keys (TPC-H Q17's LINEITEM, joined with a few
   * parts) does not count: it reads the rows of those keys only.
   */
  private static double tableRows(RelNode side) {
    final double[] largest = {0};
    new RelVisitor() {
      @Override public void visit(RelNode node, int ordinal, @Nullable RelNode parent) {
        if (node instanceof EnumerableShardScan scan && scan.bind() == null) {
          for (RelOptTable table : RelOptUtil.findTables(scan.spec().pushed())) {
            largest[0] = Math.max(largest[0], table.getRowCount());
          }
        }
        super.visit(node, ordinal, parent);
      }
    }.go(side);
    return largest[0];
  }

  /** The shard scan a side reads, and the scan's column of the side's {@code key}th. */
  private static @Nullable Scanned scanned(RelNode side, int key) {
    if (side instanceof EnumerableShardScan scan) {
      // The key list reads the scan's rows from a common table expression, in no order.
      return scan.bind() == null && scan.spec().collation().getFieldCollations().isEmpty()
          ? new Scanned(scan, key, UnaryOperator.identity()) : null;
    }
    final int inputKey;
    if (side instanceof EnumerableCalc calc) {
      final RexProgram program = calc.getProgram();
      final RexNode projected = program.expandLocalRef(program.getProjectList().get(key));
      if (!(projected instanceof RexInputRef ref)) {
        return null;
      }
      inputKey = ref.getIndex();
    } else if (side instanceof EnumerableSort sort && sort.fetch == null
        && sort.offset == null) {
      inputKey = key;
    } else if (side instanceof Aggregate aggregate && side instanceof EnumerableRel
        && aggregate.getGroupType() == Aggregate.Group.SIMPLE
        && key < aggregate.getGroupCount()) {
      // A group whose key is not in the list is left out whole, before or after grouping.
      inputKey = aggregate.getGroupSet().nth(key);
    } else if (side instanceof Join join && side instanceof EnumerableRel) {
      return throughJoin(join, key);
    } else {
      return null;
    }
    final Scanned below = scanned(side.getInput(0), inputKey);
    return below == null ? null : new Scanned(below.scan(), below.column(),
        scan -> side.copy(side.getTraitSet(), List.of(below.rebuild().apply(scan))));
  }

  /**
   * The scan of a join's input that a key of the join's rows comes from, where keeping only
   * the listed keys in that input keeps exactly the join's rows with those keys: an input
   * whose rows the join does not add nulls for.
   */
  private static @Nullable Scanned throughJoin(Join join, int key) {
    final int leftCount = join.getLeft().getRowType().getFieldCount();
    final int input = key < leftCount ? 0 : 1;
    if (!keepsRowsOf(join.getJoinType(), input)) {
      return null;
    }
    final Scanned below = scanned(join.getInput(input), input == 0 ? key : key - leftCount);
    return below == null ? null : new Scanned(below.scan(), below.column(), scan -> {
      final List<RelNode> inputs = new ArrayList<>(join.getInputs());
      inputs.set(input, below.rebuild().apply(scan));
      return join.copy(join.getTraitSet(), inputs);
    });
  }
}
