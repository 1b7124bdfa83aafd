package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;
import io.shardset.model.MoveTables;
import io.shardset.topology.ShardSite;

import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
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
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlString;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    private final HepProgram program = new HepProgramBuilder()
        .addRuleCollection(List.of(CoreRules.JOIN_PROJECT_BOTH_TRANSPOSE,
            CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
        .build();

    RelNode run(RelNode rel) {
      final HepPlanner planner = new HepPlanner(program);
      planner.setRoot(rel);
      return planner.findBestExp();
    }
  }

  /** One table as a shard's SQL names it. */
  private record PhysicalName(List<String> tableName, List<String> columns) {
  }

  /** Identifies shards that get the same text: the same dialect (shared per kind of
   * database) and the same physical tables for every scan of the pushed work (several for
   * the scan of a subpartitioned table: those of the subpartitions it reads). */
  private record Layout(SqlDialect dialect, List<List<PhysicalName>> scans) {
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
   *     {@link io.shardset.calcite.runtime.SubpartitionTexts}); any other scan of a
   *     subpartitioned table reads all of its subpartitions
   */
  static List<RenderedSql> render(ShardTable table, RelNode pushed,
      @Nullable BitSet subpartitions) {
    return render(table, pushed, subpartitions, new BitSet(), t -> false);
  }

  /**
   * Renders the pushed work as {@link #render(ShardTable, RelNode, BitSet)} does, while a
   * resharding runs: on each shard of {@code moveReaders}, every table that {@code carried}
   * accepts is read together with its move tables ({@code P UNION ALL P_SHARDSET_MOVE} for
   * each physical table P it reads there), so that rows in transit are read exactly once.
   *
   * @param moveReaders the shards (numbered as {@code table} numbers them) that read their
   *     move tables
   * @param carried whether the move carries rows of a table
   */
  static List<RenderedSql> render(ShardTable table, RelNode pushed,
      @Nullable BitSet subpartitions, BitSet moveReaders, Predicate<ShardTable> carried) {
    final List<ShardTable> scans = scannedTables(pushed);
    final Map<Layout, BitSet> groups = new LinkedHashMap<>();
    shards:
    for (int i = 0; i < table.shardCount(); i++) {
      final String shard = table.shardName(i);
      final List<List<PhysicalName>> names = new ArrayList<>();
      for (int scan = 0; scan < scans.size(); scan++) {
        final ShardTable leaf = scans.get(scan);
        final int index = leaf.shardIndex(shard);
        if (index < 0) {
          continue shards; // a joined table is not on this shard: it can never be a target
        }
        final List<PhysicalName> physical =
            physicalNames(leaf.site(index), scan == 0 ? subpartitions : null);
        names.add(moveReaders.get(i) && carried.test(leaf) ? withMoveTables(physical) : physical);
      }
      groups.computeIfAbsent(new Layout(table.dialect(i), names), k -> new BitSet())
          .set(i);
    }
    final List<RenderedSql> result = new ArrayList<>();
    final boolean narrow = KeyPointLists.applies(table, pushed);
    groups.forEach((layout, shards) -> {
      if (narrow) { // a text per shard, each with only the shard's keys of a long list
        shards.stream().forEach(i -> result.add(
            render(KeyPointLists.forShard(table, pushed, i), layout, single(i))));
      } else {
        result.add(render(pushed, layout, shards));
      }
    });
    return List.copyOf(result);
  }

  private static BitSet single(int shard) {
    final BitSet bits = new BitSet();
    bits.set(shard);
    return bits;
  }

  /** The physical tables a scan reads on one shard: the table, or the chosen subpartition
   * tables (all when {@code chosen} is null, the first when it is empty). */
  private static List<PhysicalName> physicalNames(ShardSite site, @Nullable BitSet chosen) {
    final List<ShardSite> tables = site.tables();
    final List<PhysicalName> names = new ArrayList<>();
    for (int i = 0; i < tables.size(); i++) {
      if (site.subpartitions().isEmpty() || chosen == null || chosen.get(i)
          || chosen.isEmpty() && i == 0) {
        names.add(new PhysicalName(tables.get(i).qualifiedName(),
            tables.get(i).physicalColumns()));
      }
    }
    return names;
  }

  /** Each physical table followed by its move table, which has the same qualification and
   * columns. */
  private static List<PhysicalName> withMoveTables(List<PhysicalName> tables) {
    final List<PhysicalName> names = new ArrayList<>();
    for (PhysicalName table : tables) {
      final List<String> moveName = new ArrayList<>(table.tableName());
      final int last = moveName.size() - 1;
      moveName.set(last, MoveTables.name(moveName.get(last)));
      names.add(table);
      names.add(new PhysicalName(moveName, table.columns()));
    }
    return names;
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

  private static RenderedSql render(RelNode pushed, Layout layout, BitSet shards) {
    final RelNode physical = pushed.accept(new RelShuttleImpl() {
      private int scans;

      @Override public RelNode visit(TableScan scan) {
        final List<RelNode> tables = new ArrayList<>();
        for (PhysicalName name : layout.scans().get(scans)) {
          final RelDataType rowType =
              physicalRowType(scan.getRowType(), name.columns(),
                  scan.getCluster().getTypeFactory());
          tables.add(LogicalTableScan.create(scan.getCluster(),
              RelOptTableImpl.create(null, rowType, name.tableName(), null), List.of()));
        }
        scans++;
        // Subpartition tables read together are one derived table of the same rows.
        return tables.size() == 1 ? tables.get(0) : LogicalUnion.create(tables, true);
      }
    });
    final SqlDialect dialect = layout.dialect();
    final RelNode flat = expandTimestampSearches(JOIN_SHAPER.run(physical));
    // One line: the text appears in EXPLAIN and in shard logs.
    final SqlString sql = ShardSqlShaper.shape(
            new RelToSqlConverter(dialect).visitRoot(flat).asStatement())
        .toSqlString(c -> c.withDialect(dialect)
            .withAlwaysUseParentheses(false)
            .withSelectListItemsOnSeparateLines(false)
            .withUpdateSetListNewline(false)
            .withClauseStartsLine(false)
            .withClauseEndsLine(false)
            .withIndentation(0));
    final List<Integer> params = sql.getDynamicParameters();
    return new RenderedSql(shards, oneLine(sql.getSql()),
        params == null ? List.of() : params);
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

  /** The text with line breaks (which the writer still puts before some clauses, such as
   * JOIN) replaced by spaces, except inside string literals. */
  static String oneLine(String sql) {
    final StringBuilder b = new StringBuilder(sql.length());
    boolean inLiteral = false;
    for (int i = 0; i < sql.length(); i++) {
      final char c = sql.charAt(i);
      if (c == '\'') {
        inLiteral = !inLiteral; // a doubled quote toggles twice
      }
      if (!inLiteral && (c == '\n' || c == '\r')) {
        while (b.length() > 0 && b.charAt(b.length() - 1) == ' ') {
          b.setLength(b.length() - 1);
        }
        b.append(' ');
        while (i + 1 < sql.length() && sql.charAt(i + 1) == ' ') {
          i++;
        }
        continue;
      }
      b.append(c);
    }
    return b.toString();
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
