package io.shardset.calcite.runtime;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.util.SqlString;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statement a group of shards is sent, with a place for the physical tables of each scan,
 * filled in when the statement executes without the planner.
 *
 * <p>The statement is what Calcite's SQL writer made of the pushed work over placeholder
 * tables of the scans' {@link ScanShape shapes}: {@code SHARDSET$SCAN0$} for a scan of one
 * table (its alias {@code SHARDSET$SCAN0$0} when the shape says the writer renames it),
 * {@code SELECT * FROM SHARDSET$UNION0$0 UNION ALL SELECT * FROM SHARDSET$UNION0$1} for a
 * scan of several. Filling puts the chosen tables in their place, with the aliases the writer
 * would have given them (a table read twice is {@code T AS T0} the second time), and writes
 * the columns that name a table's alias with that alias. The writer's other aliases
 * ({@code t}, {@code t0}, ...) do not depend on the names of the tables, only on the shapes.
 *
 * <p>Immutable; SQL nodes are only read, so executions on several threads may fill it.
 */
public final class SqlTemplate {
  private static final SqlParserPos POS = SqlParserPos.ZERO;
  /** A placeholder of a scan of one table ({@code SHARDSET$SCAN2$}), or its alias when the
   * writer renamed it ({@code SHARDSET$SCAN2$0}). */
  private static final Pattern SCAN = Pattern.compile("SHARDSET\\$SCAN(\\d+)\\$0?");

  private final SqlDialect dialect;
  private final SqlNode statement;
  private final List<ScanShape> shapes;

  /**
   * Creates a template.
   *
   * @param statement the written statement over the placeholder tables, with its conditions
   *     shaped
   * @param shapes the shape of each scan, in the order the writer meets them
   */
  public SqlTemplate(SqlDialect dialect, SqlNode statement, List<ScanShape> shapes) {
    this.dialect = Objects.requireNonNull(dialect, "dialect");
    this.statement = Objects.requireNonNull(statement, "statement");
    this.shapes = List.copyOf(shapes);
  }

  /** The placeholder of a scan of one table. */
  public static String placeholder(int scan) {
    return "SHARDSET$SCAN" + scan + "$";
  }

  /** The placeholder of one of the tables a scan of several reads. */
  public static String placeholder(int scan, int input) {
    return "SHARDSET$UNION" + scan + "$" + input;
  }

  /** The shape of each scan. */
  public List<ScanShape> shapes() {
    return shapes;
  }

  /**
   * The statement reading these tables.
   *
   * @param tables for each scan, the tables it reads, of this template's shape
   * @throws IllegalStateException if the statement does not have exactly one place for each
   *     scan
   */
  public Rendered fill(List<List<PhysicalTable>> tables) {
    final List<ScanShape> actual = ScanShape.of(tables);
    if (!actual.equals(shapes)) {
      throw new IllegalArgumentException("tables of shapes " + actual + " for a template of "
          + shapes);
    }
    final Filler filler = new Filler(tables);
    final SqlNode filled = statement.accept(filler);
    for (int scan = 0; scan < shapes.size(); scan++) {
      if (filler.places[scan] != 1) {
        throw new IllegalStateException("the statement has " + filler.places[scan]
            + " places for scan " + scan + ", not one: " + render(statement, dialect).sql());
      }
    }
    return render(Objects.requireNonNull(filled, "filled"), dialect);
  }

  /**
   * A statement as one shard text.
   *
   * @param sql the text
   * @param parameters the query parameter index of each {@code ?} in the text, in order
   */
  public record Rendered(String sql, List<Integer> parameters) {
    public Rendered {
      Objects.requireNonNull(sql, "sql");
      parameters = List.copyOf(parameters);
    }
  }

  /** Writes a statement in a dialect, on one line: the text appears in EXPLAIN and in shard
   * logs. */
  public static Rendered render(SqlNode statement, SqlDialect dialect) {
    final SqlString sql = statement.toSqlString(c -> c.withDialect(dialect)
        .withAlwaysUseParentheses(false)
        .withSelectListItemsOnSeparateLines(false)
        .withUpdateSetListNewline(false)
        .withClauseStartsLine(false)
        .withClauseEndsLine(false)
        .withIndentation(0));
    final List<Integer> params = sql.getDynamicParameters();
    return new Rendered(oneLine(sql.getSql()), params == null ? List.of() : params);
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

  /** The scan a placeholder of one table (or its alias) stands for; -1 for any other
   * name. */
  private static int scanOf(String name) {
    final Matcher matcher = SCAN.matcher(name);
    return matcher.matches() ? Integer.parseInt(matcher.group(1)) : -1;
  }

  /** Puts the tables in their places. */
  private final class Filler extends SqlShuttle {
    private final List<List<PhysicalTable>> tables;
    /** The alias of each table, as the writer gives them. */
    private final List<List<String>> aliases;
    private final int[] places;

    Filler(List<List<PhysicalTable>> tables) {
      this.tables = tables;
      this.places = new int[tables.size()];
      this.aliases = ScanShape.aliases(tables);
    }

    @Override public @Nullable SqlNode visit(SqlIdentifier id) {
      final int scan = scanOf(id.names.get(0));
      if (scan < 0 || scan >= tables.size()) {
        return id;
      }
      if (id.names.size() == 1) { // where the writer leaves the alias implicit
        places[scan]++;
        return new SqlIdentifier(tables.get(scan).get(0).qualifiedName(), POS);
      }
      // A column qualified by the table's alias.
      final List<String> names = new ArrayList<>(id.names);
      names.set(0, aliases.get(scan).get(0));
      return new SqlIdentifier(names, id.getParserPosition());
    }

    @Override public @Nullable SqlNode visit(SqlCall call) {
      if (call.getKind() == SqlKind.AS && call.operand(0) instanceof SqlIdentifier id
          && id.names.size() == 1) {
        final int scan = scanOf(id.names.get(0));
        if (scan >= 0 && scan < tables.size()) {
          places[scan]++;
          return SqlStdOperatorTable.AS.createCall(POS,
              new SqlIdentifier(tables.get(scan).get(0).qualifiedName(), POS),
              new SqlIdentifier(aliases.get(scan).get(0), POS));
        }
      }
      if (call.getKind() == SqlKind.UNION && call.operandCount() == 2) {
        final int scan = unionScan(call);
        if (scan >= 0) {
          places[scan]++;
          return union(scan, call);
        }
      }
      return super.visit(call);
    }

    /** The scan a UNION of placeholder tables stands for; -1 for any other. */
    private int unionScan(SqlCall union) {
      for (int scan = 0; scan < tables.size(); scan++) {
        if (shapes.get(scan).union()
            && placeholder(scan, 0).equals(leafTable(union.operand(0)))
            && placeholder(scan, 1).equals(leafTable(union.operand(1)))) {
          return scan;
        }
      }
      return -1;
    }

    /** The union of the scan's tables, each read as the template reads its first. */
    private SqlNode union(int scan, SqlCall template) {
      final SqlSelect leaf = template.operand(0);
      SqlNode result = null;
      for (int i = 0; i < tables.get(scan).size(); i++) {
        final SqlSelect select = (SqlSelect) leaf.clone(POS);
        select.setFrom(unionInput(scan, i));
        result = result == null ? select
            : template.getOperator().createCall(POS, result, select);
      }
      return Objects.requireNonNull(result, "result");
    }

    /** A table of a UNION: the writer names its alias only in a dialect that always
     * does. */
    private SqlNode unionInput(int scan, int input) {
      final SqlIdentifier name =
          new SqlIdentifier(tables.get(scan).get(input).qualifiedName(), POS);
      return dialect.hasImplicitTableAlias() ? name : SqlStdOperatorTable.AS.createCall(POS,
          name, new SqlIdentifier(aliases.get(scan).get(input), POS));
    }
  }

  /** The one-part table name a {@code SELECT * FROM table [AS alias]} reads; null for any
   * other node. */
  private static @Nullable String leafTable(SqlNode node) {
    if (!(node instanceof SqlSelect select)) {
      return null;
    }
    SqlNode from = select.getFrom();
    if (from != null && from.getKind() == SqlKind.AS) {
      from = ((SqlCall) from).operand(0);
    }
    return from instanceof SqlIdentifier id && id.names.size() == 1 ? id.names.get(0) : null;
  }
}
