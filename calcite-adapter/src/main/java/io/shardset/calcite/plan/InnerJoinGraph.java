package io.shardset.calcite.plan;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.ImmutableIntList;

import com.google.common.collect.ImmutableMap;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A tree of inner joins seen as what join ordering needs: the relations joined (the
 * factors, in the order of their fields) and the conjuncts of every join condition, over the
 * fields of all factors side by side.
 *
 * <p>{@link #pushJoinsIntoShards()} first replaces each pair of shard scans whose join the
 * shards can run by the one joined scan {@link ShardJoinRule} makes of them, so that however
 * the remaining factors are ordered, the co-located and reference joins still run inside the
 * shards. {@link #toRel} then gives the factors as one {@link MultiJoin} for Calcite's
 * heuristic join ordering, under a projection that restores the original field order.
 *
 * <p>A working value of one rule call: it is changed in place and not shared.
 */
final class InnerJoinGraph {
  private final RexBuilder rexBuilder;
  private final RelDataType rowType;
  private final List<RelNode> factors = new ArrayList<>();
  private final List<RexNode> conjuncts = new ArrayList<>();
  /** The current position of each field of the original join's output. */
  private final int[] positions;

  private InnerJoinGraph(LogicalJoin join) {
    this.rexBuilder = join.getCluster().getRexBuilder();
    this.rowType = join.getRowType();
    collect(join, 0);
    this.positions = new int[rowType.getFieldCount()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = i;
    }
  }

  /** The graph of the inner joins reachable from {@code join} through inner joins. */
  static InnerJoinGraph of(LogicalJoin join) {
    return new InnerJoinGraph(join);
  }

  /** Whether a join can be a node of the graph: an inner join without correlation. */
  static boolean isInnerJoin(RelNode rel) {
    return rel instanceof LogicalJoin join && join.getJoinType() == JoinRelType.INNER
        && join.getVariablesSet().isEmpty();
  }

  /** The number of relations the joins join. */
  int factorCount() {
    return factors.size();
  }

  private void collect(RelNode node, int offset) {
    final RelNode rel = node.stripped();
    if (isInnerJoin(rel)) {
      final LogicalJoin join = (LogicalJoin) rel;
      collect(join.getLeft(), offset);
      collect(join.getRight(), offset + join.getLeft().getRowType().getFieldCount());
      for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
        conjuncts.add(RexUtil.shift(conjunct, offset));
      }
    } else {
      factors.add(rel);
    }
  }

  /**
   * Joins inside the shards every pair of factors that {@link ShardJoinRule} can push, on the
   * conjuncts between just those two, until no pair is left: pairs of sharded tables first,
   * so that a co-located join is not lost to a reference table joined earlier.
   *
   * @return whether any pair was pushed
   */
  boolean pushJoinsIntoShards() {
    boolean pushed = false;
    while (pushOnePair(false) || pushOnePair(true)) {
      pushed = true;
    }
    return pushed;
  }

  private boolean pushOnePair(boolean withReferenceTables) {
    for (int i = 0; i < factors.size(); i++) {
      for (int j = i + 1; j < factors.size(); j++) {
        if (factors.get(i) instanceof ShardScan left && factors.get(j) instanceof ShardScan right
            && withReferenceTables == (left.spec().table().isDuplicated()
                || right.spec().table().isDuplicated())
            && tryPush(i, left, j, right)) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean tryPush(int i, ShardScan left, int j, ShardScan right) {
    final ImmutableBitSet pair = ImmutableBitSet.of(i, j);
    final List<RexNode> between = new ArrayList<>();
    for (RexNode conjunct : conjuncts) {
      if (factorsOf(conjunct).equals(pair)) {
        between.add(conjunct);
      }
    }
    final List<RexNode> derived = impliedEqualities(i, j);
    derived.removeAll(between);
    if (between.isEmpty() && derived.isEmpty()) {
      return false;
    }
    final int[] pairMap = new int[fieldCount()];
    Arrays.fill(pairMap, -1);
    final int leftFields = left.getRowType().getFieldCount();
    for (int k = 0; k < leftFields; k++) {
      pairMap[offset(i) + k] = k;
    }
    for (int k = 0; k < right.getRowType().getFieldCount(); k++) {
      pairMap[offset(j) + k] = leftFields + k;
    }
    final List<RexNode> condition = new ArrayList<>(between);
    condition.addAll(derived);
    final LogicalJoin join = LogicalJoin.create(left, right, List.of(),
        remap(RexUtil.composeConjunction(rexBuilder, condition), pairMap), Set.of(),
        JoinRelType.INNER);
    final @Nullable ShardScan joined = ShardJoinRule.push(join, left.spec(), right.spec());
    if (joined == null) {
      return false;
    }
    merge(i, j, joined, between);
    return true;
  }

  /**
   * The equalities between a column of factor i and one of factor j that the conjuncts imply
   * without stating them: {@code o.K = e.K AND e.K = c.K} implies {@code o.K = c.K}, which is
   * what makes o and c co-located. Calcite's filter rules state each equality once, between
   * whichever tables they meet first, so a co-located pair may be joined only through a third
   * table. Only equalities of two columns of one type are followed.
   */
  private List<RexNode> impliedEqualities(int i, int j) {
    final int fields = fieldCount();
    final int[] parent = new int[fields];
    for (int f = 0; f < fields; f++) {
      parent[f] = f;
    }
    for (RexNode conjunct : conjuncts) {
      if (conjunct.getKind() == SqlKind.EQUALS
          && ((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef a
          && ((RexCall) conjunct).getOperands().get(1) instanceof RexInputRef b
          && a.getType().getSqlTypeName() == b.getType().getSqlTypeName()) {
        parent[root(parent, a.getIndex())] = root(parent, b.getIndex());
      }
    }
    final List<RexNode> implied = new ArrayList<>();
    final RelDataType iType = factors.get(i).getRowType();
    final RelDataType jType = factors.get(j).getRowType();
    for (int a = 0; a < iType.getFieldCount(); a++) {
      for (int b = 0; b < jType.getFieldCount(); b++) {
        final int fa = offset(i) + a;
        final int fb = offset(j) + b;
        if (root(parent, fa) == root(parent, fb)) {
          implied.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
              new RexInputRef(fa, iType.getFieldList().get(a).getType()),
              new RexInputRef(fb, jType.getFieldList().get(b).getType())));
        }
      }
    }
    return implied;
  }

  private static int root(int[] parent, int field) {
    int f = field;
    while (parent[f] != f) {
      f = parent[f];
    }
    return f;
  }

  /** Replaces factors i and j (i before j) by their join, whose fields are i's then j's. */
  private void merge(int i, int j, RelNode joined, List<RexNode> consumed) {
    final int[] map = new int[fieldCount()];
    final int iFields = factors.get(i).getRowType().getFieldCount();
    final int jFields = factors.get(j).getRowType().getFieldCount();
    int target = 0;
    for (int f = 0; f < factors.size(); f++) {
      if (f == j) {
        continue;
      }
      final int fields = factors.get(f).getRowType().getFieldCount();
      for (int k = 0; k < fields; k++) {
        map[offset(f) + k] = target + k;
      }
      if (f == i) {
        for (int k = 0; k < jFields; k++) {
          map[offset(j) + k] = target + iFields + k;
        }
        target += jFields;
      }
      target += fields;
    }
    conjuncts.removeAll(consumed);
    conjuncts.replaceAll(c -> remap(c, map));
    for (int p = 0; p < positions.length; p++) {
      positions[p] = map[positions[p]];
    }
    factors.set(i, joined);
    factors.remove(j);
  }

  /**
   * The factors joined again: one {@link MultiJoin} of them (a join when only two are left,
   * the one factor when all were pushed together), conjuncts over one factor as filters on
   * it, under a projection giving the original join's fields in their order and names.
   */
  RelNode toRel(RelBuilder builder) {
    final List<RexNode> joining = new ArrayList<>();
    final List<List<RexNode>> local = new ArrayList<>();
    final List<RexNode> constant = new ArrayList<>();
    for (int f = 0; f < factors.size(); f++) {
      local.add(new ArrayList<>());
    }
    for (RexNode conjunct : conjuncts) {
      final ImmutableBitSet of = factorsOf(conjunct);
      if (of.isEmpty()) {
        constant.add(conjunct);
      } else if (of.cardinality() == 1) {
        local.get(of.nth(0)).add(RexUtil.shift(conjunct, -offset(of.nth(0))));
      } else {
        joining.add(conjunct);
      }
    }
    final List<RelNode> inputs = new ArrayList<>();
    for (int f = 0; f < factors.size(); f++) {
      inputs.add(builder.push(factors.get(f)).filter(local.get(f)).build());
    }
    final RexNode condition = RexUtil.composeConjunction(rexBuilder, joining);
    if (inputs.size() == 1) {
      builder.push(inputs.get(0));
    } else if (inputs.size() == 2) {
      builder.push(inputs.get(0)).push(inputs.get(1)).join(JoinRelType.INNER, condition);
    } else {
      builder.push(multiJoin(inputs, condition));
    }
    builder.filter(constant);
    final List<RexNode> fields = new ArrayList<>();
    for (int position : positions) {
      fields.add(builder.field(position));
    }
    return builder.project(fields, rowType.getFieldNames(), true).build();
  }

  private MultiJoin multiJoin(List<RelNode> inputs, RexNode condition) {
    final List<RelDataType> types = new ArrayList<>();
    final ImmutableMap.Builder<Integer, ImmutableIntList> references = ImmutableMap.builder();
    final int[] counts = new int[fieldCount()];
    condition.accept(new RexShuttle() {
      @Override public RexNode visitInputRef(RexInputRef ref) {
        counts[ref.getIndex()]++;
        return ref;
      }
    });
    for (int f = 0; f < inputs.size(); f++) {
      types.add(inputs.get(f).getRowType());
      final int fields = inputs.get(f).getRowType().getFieldCount();
      final int[] factorCounts = new int[fields];
      System.arraycopy(counts, offset(f), factorCounts, 0, fields);
      references.put(f, ImmutableIntList.of(factorCounts));
    }
    final RelDataType joinedType = rexBuilder.getTypeFactory().createJoinType(
        types.toArray(new RelDataType[0]));
    return new MultiJoin(inputs.get(0).getCluster(), inputs, condition, joinedType, false,
        Collections.nCopies(inputs.size(), null),
        Collections.nCopies(inputs.size(), JoinRelType.INNER),
        Collections.nCopies(inputs.size(), null), references.build(), null);
  }

  /** The factors whose fields a conjunct reads. */
  private ImmutableBitSet factorsOf(RexNode conjunct) {
    final ImmutableBitSet.Builder of = ImmutableBitSet.builder();
    for (int field : RelOptUtil.InputFinder.bits(conjunct)) {
      of.set(factorOf(field));
    }
    return of.build();
  }

  private int factorOf(int field) {
    int end = 0;
    for (int f = 0; f < factors.size(); f++) {
      end += factors.get(f).getRowType().getFieldCount();
      if (field < end) {
        return f;
      }
    }
    throw new IllegalArgumentException("no factor has field " + field);
  }

  private int offset(int factor) {
    int offset = 0;
    for (int f = 0; f < factor; f++) {
      offset += factors.get(f).getRowType().getFieldCount();
    }
    return offset;
  }

  private int fieldCount() {
    return offset(factors.size());
  }

  /** The conjunct with each field reference i turned into one to {@code map[i]}. */
  private static RexNode remap(RexNode node, int[] map) {
    return node.accept(new RexShuttle() {
      @Override public RexNode visitInputRef(RexInputRef ref) {
        return new RexInputRef(map[ref.getIndex()], ref.getType());
      }
    });
  }

  @Override public String toString() {
    final List<String> names = new ArrayList<>();
    for (RelNode factor : factors) {
      names.add(factor.getRelTypeName());
    }
    return names + " " + conjuncts;
  }
}
