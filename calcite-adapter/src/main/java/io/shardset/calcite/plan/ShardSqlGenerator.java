package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.calcite.runtime.PhysicalTable;
import io.shardset.calcite.runtime.ScanShape;
import io.shardset.calcite.runtime.ShardStatements;
import io.shardset.calcite.runtime.ShardTexts;
import io.shardset.calcite.runtime.SqlTemplate;
import io.shardset.topology.ShardSite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.rel2sql.RelToSqlConverter;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Renders the work pushed into a shard scan as SQL in each shard's own dialect.
 *
 * <p>The pushed tree is written over logical tables (one, or several for a join run inside
 * the shards); for each shard every table scan is re-rooted on that shard's physical table
 * (its name and its column names, which may differ in case), or on the UNION ALL of the
 * subpartition tables it reads, and the tree is given to
 * Calcite's {@link RelToSqlConverter}. Shards that share a dialect and physical names share
 * one text, so the work does not grow with the number of shards.
 *
 * <p>Where an execution decides which physical tables a scan reads (the subpartitions query
 * parameters select, the move tables of a resharding in progress), the tree is written once
 * per shape those tables can take, over placeholder tables, as {@link SqlTemplate}s that the
 * execution fills in without the planner.
 */
final class ShardSqlGenerator {
  /**
   * Lifts the projections under an inner join above it, so that the join reads the tables
   * themselves: {@code FROM ORDERS t JOIN LINES t0}, not {@code FROM (SELECT ...) t JOIN
   * (SELECT ...) t0}. H2 runs the join of derived tables about twice as slowly.
   */
  private static final JoinShaper JOIN_SHAPER = new JoinShaper();

  private ShardSqlGenerator() {
  }

  /** Runs the join-flattening rules over a pushed tree. */
  private static final class JoinShaper {
    /** Calcite's rule, but not for semi and anti joins, whose row type it cannot build; they
     * become {@code [NOT] EXISTS} filters ({@link SemiJoinWriter#existsFilters}). */
    private static final RelOptRule JOIN_PROJECT_TRANSPOSE =
        CoreRules.JOIN_PROJECT_BOTH_TRANSPOSE.config
            .withOperandSupplier(b0 -> b0.operand(LogicalJoin.class)
                .predicate(join -> join.getJoinType().projectsRight())
                .inputs(
                    b1 -> b1.operand(LogicalProject.class).anyInputs(),
                    b2 -> b2.operand(LogicalProject.class).anyInputs()))
            .toRule();

    private final HepProgram program = new HepProgramBuilder()
        .addRuleCollection(List.of(JOIN_PROJECT_TRANSPOSE,
            CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
        .build();

    RelNode run(RelNode rel) {
      final HepPlanner planner = new HepPlanner(program);
      planner.setRoot(rel);
      return planner.findBestExp();
    }
  }

  /** Calcite's SQL writer, with some aliases taken from the start. */
  private static final class AliasSeededConverter extends RelToSqlConverter {
    AliasSeededConverter(SqlDialect dialect, Set<String> taken) {
      super(dialect);
      aliasSet.addAll(taken);
    }
  }

  /** Identifies shards that get the same text: the same dialect (shared per kind of
   * database) and the same physical tables for every scan of the pushed work (several for
   * the scan of a subpartitioned table: those of the subpartitions it reads). */
  private record Layout(SqlDialect dialect, List<List<PhysicalTable>> scans) {
    @Override public boolean equals(Object o) {
      return o instanceof Layout that && dialect == that.dialect && scans.equals(that.scans);
    }

    @Override public int hashCode() {
      return System.identityHashCode(dialect) * 31 + scans.hashCode();
    }
  }

  /**
   * Renders the pushed work for every shard of {@code table}, which drives the scan; other
   * tables the work reads (co-located or duplicated) are read on the same shard.
   *
   * @param subpartitions the subpartitions the left-most scan reads, when its table has
   *     subpartitions: null for all of them, and an empty set for the first (see
   *     {@link SubpartitionSelection}); any other scan of a subpartitioned table reads all of
   *     its subpartitions
   */
  static ShardTexts render(ShardTable table, RelNode pushed, @Nullable BitSet subpartitions) {
    return render(table, pushed, subpartitions, new BitSet(), t -> false);
  }

  /**
   * Renders the pushed work as {@link #render(ShardTable, RelNode, BitSet)} does, while a
   * resharding runs: on each shard of {@code moveReaders}, every table that {@code carried}
   * accepts is read together with its move tables ({@code P UNION ALL P_SHARDSET_MOVE} for
   * each physical table P it reads there), so that rows in transit are read exactly once.
   * Executions fill in {@link ShardStatements} instead; this says what they must write.
   *
   * @param moveReaders the shards (numbered as {@code table} numbers them) that read their
   *     move tables
   * @param carried whether the move carries rows of a table
   */
  static ShardTexts render(ShardTable table, RelNode pushed,
      @Nullable BitSet subpartitions, BitSet moveReaders, Predicate<ShardTable> carried) {
    final List<ShardTable> scans = scannedTables(pushed);
    final Map<Layout, BitSet> groups = new LinkedHashMap<>();
    shards:
    for (int i = 0; i < table.shardCount(); i++) {
      final String shard = table.shardName(i);
      final List<List<PhysicalTable>> names = new ArrayList<>();
      for (int scan = 0; scan < scans.size(); scan++) {
        final ShardTable leaf = scans.get(scan);
        final int index = leaf.shardIndex(shard);
        if (index < 0) {
          continue shards; // a joined table is not on this shard: it can never be a target
        }
        final List<PhysicalTable> physical =
            physicalTables(leaf.site(index), scan == 0 ? subpartitions : null);
        names.add(moveReaders.get(i) && carried.test(leaf)
            ? ShardStatements.withMoveTables(physical) : physical);
      }
      groups.computeIfAbsent(new Layout(table.dialect(i), names), k -> new BitSet())
          .set(i);
    }
    final List<ShardTexts.Text> result = new ArrayList<>();
    final boolean narrow = KeyPointLists.applies(table, pushed);
    groups.forEach((layout, shards) -> {
      if (narrow) { // a text per shard, each with only the shard's keys of a long list
        shards.stream().forEach(i -> result.add(text(single(i), SqlTemplate.render(
            statement(KeyPointLists.forShard(table, pushed, i), layout.scans(),
                layout.dialect()), layout.dialect()))));
      } else {
        result.add(text(shards, SqlTemplate.render(
            statement(pushed, layout.scans(), layout.dialect()), layout.dialect())));
      }
    });
    return new ShardTexts(result, table.shardCount());
  }

  /**
   * The statements of the pushed work for every shard of {@code table}, as templates that
   * executions fill in with the tables they read.
   *
   * @param planned the subpartitions the left-most scan reads when the plan fixes them: null
   *     for all of them
   * @param selected whether query parameters select the subpartitions the left-most scan
   *     reads at each execution
   */
  static ShardStatements statements(ShardTable table, RelNode pushed,
      @Nullable BitSet planned, boolean selected) {
    final List<ShardTable> scans = scannedTables(pushed);
    final Map<Layout, BitSet> groups = new LinkedHashMap<>();
    final Map<Layout, Boolean> selectsFirst = new LinkedHashMap<>();
    shards:
    for (int i = 0; i < table.shardCount(); i++) {
      final String shard = table.shardName(i);
      final List<List<PhysicalTable>> names = new ArrayList<>();
      boolean subpartitioned = false;
      for (int scan = 0; scan < scans.size(); scan++) {
        final int index = scans.get(scan).shardIndex(shard);
        if (index < 0) {
          continue shards; // a joined table is not on this shard: it can never be a target
        }
        final ShardSite site = scans.get(scan).site(index);
        subpartitioned |= scan == 0 && !site.subpartitions().isEmpty();
        names.add(physicalTables(site, null));
      }
      final Layout layout = new Layout(table.dialect(i), names);
      groups.computeIfAbsent(layout, k -> new BitSet()).set(i);
      selectsFirst.put(layout, subpartitioned);
    }
    final boolean narrow = KeyPointLists.applies(table, pushed);
    final boolean movable = table.live() != null;
    final List<ShardStatements.Group> result = new ArrayList<>();
    groups.forEach((layout, shards) -> {
      final boolean selects = selectsFirst.get(layout);
      final List<List<ScanShape>> shapes =
          shapes(layout.scans(), selects, selects && selected, planned, movable);
      if (narrow) { // a template per shard, each with only the shard's keys of a long list
        shards.stream().forEach(i -> result.add(new ShardStatements.Group(single(i),
            layout.scans(), selects, templates(KeyPointLists.forShard(table, pushed, i),
                layout.dialect(), shapes))));
      } else {
        result.add(new ShardStatements.Group(shards, layout.scans(), selects,
            templates(pushed, layout.dialect(), shapes)));
      }
    });
    return new ShardStatements(table.shardCount(), result, planned);
  }

  /**
   * Every combination of shapes the scans' tables can take at execution.
   *
   * @param selects whether the first scan reads only selected subpartitions
   * @param selected whether parameters select them at each execution (else {@code planned}
   *     does)
   * @param movable whether a resharding can make shards read move tables too
   */
  private static List<List<ScanShape>> shapes(List<List<PhysicalTable>> scans,
      boolean selects, boolean selected, @Nullable BitSet planned, boolean movable) {
    List<List<ScanShape>> result = List.of(List.of());
    final Set<String> earlier = new HashSet<>(); // names that scans met before can read
    for (int scan = 0; scan < scans.size(); scan++) {
      final List<PhysicalTable> all = scans.get(scan);
      final List<PhysicalTable> read =
          scan == 0 && selects ? PhysicalTable.chosen(all, planned) : all;
      final Set<ScanShape> options = new LinkedHashSet<>();
      if (scan == 0 && selected) {
        for (int i = 0; i < all.size(); i++) { // any table can be the first chosen
          options.add(new ScanShape(false, all.get(i).columns(), false));
          if (i + 1 < all.size()) {
            options.add(new ScanShape(true, all.get(i).columns(), false));
          }
        }
      } else {
        options.add(new ScanShape(read.size() > 1, read.get(0).columns(), false));
        if (read.size() == 1 && earlier.contains(read.get(0).simpleName())) {
          options.add(new ScanShape(false, read.get(0).columns(), true)); // a self-join
        }
      }
      if (movable) {
        for (ScanShape shape : List.copyOf(options)) {
          options.add(new ScanShape(true, shape.columns(), false));
        }
      }
      for (PhysicalTable table : movable ? ShardStatements.withMoveTables(all) : all) {
        earlier.add(table.simpleName());
      }
      final List<List<ScanShape>> combined = new ArrayList<>();
      for (List<ScanShape> prefix : result) {
        for (ScanShape option : options) {
          final List<ScanShape> shapes = new ArrayList<>(prefix);
          shapes.add(option);
          combined.add(shapes);
        }
      }
      result = combined;
    }
    return result;
  }

  /** A template for each combination of shapes. */
  private static Map<List<ScanShape>, SqlTemplate> templates(RelNode pushed,
      SqlDialect dialect, List<List<ScanShape>> shapes) {
    final Map<List<ScanShape>, SqlTemplate> templates = new LinkedHashMap<>();
    for (List<ScanShape> scanShapes : shapes) {
      final List<List<PhysicalTable>> placeholders = new ArrayList<>();
      final Set<String> renamed = new HashSet<>();
      for (int scan = 0; scan < scanShapes.size(); scan++) {
        if (scanShapes.get(scan).renamed()) {
          renamed.add(SqlTemplate.placeholder(scan));
        }
        final List<String> columns = scanShapes.get(scan).columns();
        placeholders.add(scanShapes.get(scan).union()
            ? List.of(new PhysicalTable(List.of(SqlTemplate.placeholder(scan, 0)), columns),
                new PhysicalTable(List.of(SqlTemplate.placeholder(scan, 1)), columns))
            : List.of(new PhysicalTable(List.of(SqlTemplate.placeholder(scan)), columns)));
      }
      templates.put(scanShapes, new SqlTemplate(dialect,
          statement(pushed, placeholders, dialect, renamed), scanShapes));
    }
    return templates;
  }

  private static ShardTexts.Text text(BitSet shards, SqlTemplate.Rendered sql) {
    return new ShardTexts.Text(shards, sql.sql(), sql.parameters());
  }

  private static BitSet single(int shard) {
    final BitSet bits = new BitSet();
    bits.set(shard);
    return bits;
  }

  /** The physical tables a scan reads on one shard: the table, or the chosen subpartition
   * tables (all when {@code chosen} is null, the first when it is empty). */
  private static List<PhysicalTable> physicalTables(ShardSite site, @Nullable BitSet chosen) {
    final List<PhysicalTable> all = new ArrayList<>();
    for (ShardSite physical : site.tables()) {
      all.add(new PhysicalTable(physical.qualifiedName(), physical.physicalColumns()));
    }
    return site.subpartitions().isEmpty() ? all : PhysicalTable.chosen(all, chosen);
  }

  /** The table of every scan of the pushed work, in the order the shuttle meets them (the
   * left-most first). */
  static List<ShardTable> scannedTables(RelNode pushed) {
    final List<ShardTable> tables = new ArrayList<>();
    pushed.accept(new RelShuttleImpl() {
      @Override public RelNode visit(TableScan scan) {
        final ShardTable table = scan.getTable().unwrap(ShardTable.class);
        if (table == null) {
          throw new IllegalStateException("not a sharded table: " + scan.getTable());
        }
        tables.add(table);
        return scan;
      }
    });
    return tables;
  }

  /** Row-wise work over one table, as the SELECT the dialect's SQL writer makes of it over
   * one physical table, its conditions shaped: what an UPDATE or DELETE of that table takes
   * its WHERE clause and SET expressions from. */
  static SqlNode select(RelNode pushed, PhysicalTable table, SqlDialect dialect) {
    return statement(pushed, List.of(List.of(table)), dialect);
  }

  /** The pushed work over these physical tables, as the statement the dialect's SQL writer
   * makes of it, its conditions shaped. */
  private static SqlNode statement(RelNode pushed, List<List<PhysicalTable>> tables,
      SqlDialect dialect) {
    return statement(pushed, tables, dialect, Set.of());
  }

  /**
   * The pushed work over these physical tables, as the statement the dialect's SQL writer
   * makes of it, its conditions shaped.
   *
   * @param taken table names the writer takes as aliases met before, so that it gives those
   *     tables other aliases, as it does to a table it meets again
   */
  private static SqlNode statement(RelNode pushed, List<List<PhysicalTable>> tables,
      SqlDialect dialect, Set<String> taken) {
    final RelNode physical = pushed.accept(new RelShuttleImpl() {
      private int scans;

      @Override public RelNode visit(TableScan scan) {
        final List<RelNode> inputs = new ArrayList<>();
        for (PhysicalTable table : tables.get(scans)) {
          final RelDataType rowType =
              physicalRowType(scan.getRowType(), table.columns(),
                  scan.getCluster().getTypeFactory());
          inputs.add(LogicalTableScan.create(scan.getCluster(),
              RelOptTableImpl.create(null, rowType, table.qualifiedName(), null), List.of()));
        }
        scans++;
        // Subpartition tables read together are one derived table of the same rows.
        return inputs.size() == 1 ? inputs.get(0) : LogicalUnion.create(inputs, true);
      }
    });
    final RelNode flat =
        SemiJoinWriter.existsFilters(
            expandTimestampSearches(JOIN_SHAPER.run(SemiJoinWriter.rewrite(physical))));
    return ShardSqlShaper.shape(
        new AliasSeededConverter(dialect, taken).visitRoot(flat).asStatement());
  }

  /**
   * Writes each search over timestamps ({@code ts BETWEEN a AND b} and the like) as the
   * comparisons it stands for, with this plan's types. Calcite's SQL writer expands searches
   * itself with the default type system, which rounds timestamp bounds to milliseconds.
   */
  private static RelNode expandTimestampSearches(RelNode rel) {
    final RexBuilder rexBuilder = rel.getCluster().getRexBuilder();
    final RexShuttle expander = new RexShuttle() {
      @Override public RexNode visitCall(RexCall call) {
        if (call.getKind() == SqlKind.SEARCH
            && call.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
          return RexUtil.expandSearch(rexBuilder, null, call);
        }
        return super.visitCall(call);
      }
    };
    return rel.accept(new RelHomogeneousShuttle() {
      @Override public RelNode visit(RelNode other) {
        return super.visit(other).accept(expander);
      }
    });
  }

  /** The logical row type with the shard's physical column names. */
  private static RelDataType physicalRowType(RelDataType logical, List<String> columns,
      RelDataTypeFactory typeFactory) {
    final RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (RelDataTypeField field : logical.getFieldList()) {
      builder.add(columns.get(field.getIndex()), field.getType());
    }
    return builder.build();
  }
}
