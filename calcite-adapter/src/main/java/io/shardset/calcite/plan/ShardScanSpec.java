package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.ShardStatements;
import io.shardset.calcite.runtime.ShardTexts;
import io.shardset.routing.KeyCondition;

import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.sql.SqlExplainLevel;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Everything a shard scan stands for: the table, the work pushed into each shard (a detached
 * logical tree over the table) and the key condition that selects the shards.
 *
 * <p>Shared, unchanged, by the logical {@link ShardScan} and its {@link EnumerableShardScan}
 * twin; rules derive new specs rather than modify one.
 */
public final class ShardScanSpec {
  private final ShardTable table;
  private final RelOptTable relOptTable;
  private final RelNode pushed;
  private final KeyCondition condition;
  private final Phase phase;
  private final ScanHints hints;
  private final ShardSelection selection;
  private final SubpartitionSelection subpartitions;
  private final String canonicalPushed;
  /** The canonical text of every operator of the pushed tree, by identity, for the specs
   * that grow from this one. */
  private final Map<RelNode, String> texts;
  /** The number of operators in the pushed tree, its scans included (see nodeCount). */
  private final int operators;
  /** The tables the pushed work reads, for EXPLAIN: {@code [S, T]} or, joined,
   * {@code [S, T], [S, U]}. */
  private final String tableNames;
  /** Per-shard SQL, rendered on first use (EXPLAIN or code generation) and then kept. */
  private volatile @Nullable ShardTexts sqls;

  ShardScanSpec(ShardTable table, RelOptTable relOptTable, RelNode pushed,
      KeyCondition condition, Phase phase, ScanHints hints) {
    this(table, relOptTable, pushed, condition, phase, hints, List.of());
  }

  /** A spec whose pushed tree may contain operators of the pushed trees of
   * {@code grownFrom}, whose canonical texts are then reused. */
  private ShardScanSpec(ShardTable table, RelOptTable relOptTable, RelNode pushed,
      KeyCondition condition, Phase phase, ScanHints hints, List<ShardScanSpec> grownFrom) {
    this.table = Objects.requireNonNull(table, "table");
    this.relOptTable = Objects.requireNonNull(relOptTable, "relOptTable");
    this.pushed = Objects.requireNonNull(pushed, "pushed");
    this.condition = Objects.requireNonNull(condition, "condition");
    this.phase = Objects.requireNonNull(phase, "phase");
    this.hints = Objects.requireNonNull(hints, "hints");
    this.subpartitions = SubpartitionSelection.of(pushed);
    // A condition no subpartition can satisfy reaches no shard.
    this.selection = ShardSelection.of(table,
        subpartitions.isEmpty() ? new KeyCondition.Or(List.of()) : condition,
        hints.allowed(table));
    this.texts = PushedDigest.texts(pushed,
        grownFrom.stream().map(source -> source.texts).toList());
    this.canonicalPushed = Objects.requireNonNull(texts.get(pushed));
    this.operators = nodeCount(pushed);
    this.tableNames = tableNames(pushed);
  }

  public ShardTable table() {
    return table;
  }

  public RelOptTable relOptTable() {
    return relOptTable;
  }

  /** The work every target shard does, as a logical tree whose leaf scans the table. */
  public RelNode pushed() {
    return pushed;
  }

  /** The predicate on the shard key that decides the target shards. */
  public KeyCondition condition() {
    return condition;
  }

  /** The target shards known at planning time, or how they are found at execution. */
  public ShardSelection selection() {
    return selection;
  }

  /** What the statement's hints say of the scan. */
  public ScanHints hints() {
    return hints;
  }

  /** The subpartitions the scan reads, when its table has subpartitions. */
  public SubpartitionSelection subpartitions() {
    return subpartitions;
  }

  /** How far the pushed work has gone. */
  public Phase phase() {
    return phase;
  }

  /** Returns a spec with more row-wise work pushed and the key condition narrowed. */
  ShardScanSpec with(RelNode newPushed, KeyCondition newCondition) {
    return new ShardScanSpec(table, relOptTable, newPushed, newCondition, phase, hints,
        List.of(this));
  }

  /** Returns a spec of a join of this spec's and {@code other}'s pushed work, run in this
   * spec's shards, with the joined key condition. */
  ShardScanSpec joined(RelNode join, KeyCondition newCondition, ShardScanSpec other) {
    return new ShardScanSpec(table, relOptTable, join, newCondition, Phase.ROWS,
        hints.joinedWith(other.hints), List.of(this, other));
  }

  /** Returns a spec with more work pushed, now in the given phase. */
  ShardScanSpec with(RelNode newPushed, Phase newPhase) {
    return new ShardScanSpec(table, relOptTable, newPushed, condition, newPhase, hints,
        List.of(this));
  }

  /** Whether at most one shard answers, known at planning time: then any operator can run
   * entirely inside it. */
  boolean isSingleShard() {
    final BitSet shards = selection.staticShards();
    return shards != null && shards.cardinality() <= 1;
  }

  /** Whether exactly one shard answers, known at planning time. (An aggregate without GROUP
   * BY must still return its one row when no shard is reached, so "at most one" is not
   * enough to push it whole.) */
  boolean isExactlyOneShard() {
    final BitSet shards = selection.staticShards();
    return shards != null && shards.cardinality() == 1;
  }

  /** The order in which every shard returns its rows: the collation of a pushed Sort. */
  public RelCollation collation() {
    return pushed instanceof Sort sort ? sort.getCollation() : RelCollations.EMPTY;
  }

  /** Whether the shards' sorted streams must be merged to keep their order. */
  public boolean needsMerge() {
    return phase == Phase.SORTED && !collation().getFieldCollations().isEmpty()
        && !isSingleShard();
  }

  /**
   * Whether an output field is the one-column shard key of the scan's table (or of a table
   * co-located with it, which a pushed join makes equal), so that the table's router places
   * each of its values on the shards.
   */
  boolean isOneColumnShardKey(int field) {
    return table.keyColumns().size() == 1 && KeyColumns.of(pushed, table).keyColumn(field) == 0;
  }

  double estimateRowCount(RelMetadataQuery mq) {
    return mq.getRowCount(pushed);
  }

  /** Cost falls with each pushed operator (fewer rows or columns leave the shards) and with
   * each pruned shard, so that the planner prefers pushing; it does not depend on the
   * number of shards in any other way. Each pushed operator also takes a tenth off, so that
   * pushing wins where row estimates tie (a table without statistics is estimated at 100
   * rows, the same as a LIMIT 100). */
  RelOptCost cost(RelOptPlanner planner, RelMetadataQuery mq) {
    final double rows = estimateRowCount(mq);
    final double width = (pushed.getRowType().getFieldCount() + 2d)
        / (relOptTable.getRowType().getFieldCount() + 2d);
    final double factor = selection.reachFraction() * Math.pow(0.9, operators - 1);
    return planner.getCostFactory().makeCost(rows * factor, rows * width * factor, 0);
  }

  /** Adds this spec's terms: a canonical form for digests, readable shards and SQL for
   * EXPLAIN. */
  RelWriter explain(RelWriter pw) {
    pw.item("table", tableNames);
    pw.itemIf("hints", hints.describe(), !hints.describe().isEmpty());
    if (pw.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES) {
      return pw.item("pushed", canonicalPushed);
    }
    pw.item("shards", selection.describe(table));
    pw.itemIf("subpartitions", subpartitions.describe(), subpartitions.isSubpartitioned());
    pw.itemIf("merge", "sorted " + collation(), needsMerge());
    final List<ShardTexts.Text> rendered = sqls().texts();
    if (rendered.size() == 1) {
      return pw.item("sql", rendered.get(0).sql());
    }
    for (ShardTexts.Text sql : rendered) {
      pw.item("sql" + shardNames(sql.shards()), sql.sql());
    }
    return pw;
  }

  /** The names of some of the table's shards, e.g. {@code [s0, s2]}. */
  private String shardNames(BitSet shards) {
    final List<String> names = new ArrayList<>();
    shards.stream().forEach(i -> names.add(table.shardName(i)));
    return names.toString();
  }

  /** The pushed work as SQL, one text per group of shards that share dialect and physical
   * table (usually one text for all shards). */
  public ShardTexts sqls() {
    ShardTexts result = sqls;
    if (result == null) {
      result = ShardSqlGenerator.render(table, pushed, subpartitions.planned());
      sqls = result;
    }
    return result;
  }

  /**
   * The pushed work as SQL while a resharding runs: the shards of {@code moveReaders} read
   * the tables {@code carried} accepts together with their move tables. What executions
   * must send, which they fill in from {@link #statements()}.
   *
   * @param chosenSubpartitions the subpartitions that query parameters select, or null for
   *     those the plan reads
   */
  public ShardTexts sqls(@Nullable BitSet chosenSubpartitions, BitSet moveReaders,
      Predicate<ShardTable> carried) {
    return ShardSqlGenerator.render(table, pushed,
        chosenSubpartitions == null ? subpartitions.planned() : chosenSubpartitions,
        moveReaders, carried);
  }

  /** The pushed work as templates that executions fill in with the physical tables they
   * read. */
  public ShardStatements statements() {
    return ShardSqlGenerator.statements(table, pushed, subpartitions.planned(),
        subpartitions.isDynamic());
  }

  /** Operators in a pushed tree; a Sort with a limit counts as two (it sorts and limits). */
  private static int nodeCount(RelNode rel) {
    int count = rel instanceof Sort sort && sort.fetch != null ? 2 : 1;
    for (RelNode input : rel.getInputs()) {
      count += nodeCount(input);
    }
    return count;
  }

  private static String tableNames(RelNode pushed) {
    final List<String> names = new ArrayList<>();
    pushed.accept(new RelShuttleImpl() {
      @Override public RelNode visit(TableScan scan) {
        names.add(scan.getTable().getQualifiedName().toString());
        return scan;
      }
    });
    return String.join(", ", names);
  }

  @Override public boolean equals(@Nullable Object o) {
    return o == this
        || o instanceof ShardScanSpec that
        && table == that.table
        && phase == that.phase
        && canonicalPushed.equals(that.canonicalPushed);
  }

  @Override public int hashCode() {
    return canonicalPushed.hashCode();
  }

  @Override public String toString() {
    return canonicalPushed;
  }
}
