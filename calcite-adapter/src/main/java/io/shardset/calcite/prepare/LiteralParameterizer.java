package io.shardset.calcite.prepare;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Finds the literals of a parsed query that can become {@code ?} parameters without changing
 * the plan's meaning, and rewrites the query text accordingly (see {@link PlanCache} for the
 * positions chosen and why). Literals compared with a column that decides the plan's shape
 * ({@link RoutingColumns}) stay as written.
 */
final class LiteralParameterizer {
  private static final Set<SqlKind> COMPARISONS = EnumSet.of(SqlKind.EQUALS,
      SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL,
      SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL);

  /** Calcite's default {@code inSubQueryThreshold}: longer IN lists become a join with a
   * VALUES of literals, a shape parameters cannot take. */
  private static final int IN_LIST_LIMIT = 20;

  private LiteralParameterizer() {
  }

  /**
   * The text with the replaceable literals of {@code query} (parsed from {@code sql}) replaced
   * by {@code ?}, and their values in text order; {@code sql} itself and no values if the
   * query has {@code ?} parameters of its own or nothing to replace.
   *
   * @param routing the columns whose literals may have to stay as written
   */
  static ParameterizedSql parameterize(String sql, SqlNode query, RoutingColumns routing) {
    final Collector collector = new Collector();
    query.accept(collector);
    if (collector.hasDynamicParams || collector.literals.isEmpty()) {
      return new ParameterizedSql(sql, List.of());
    }
    final RoutingColumns.Kept kept = routing.kept(
        collector.literals.stream().map(Compared::column).toList(), collector.selects > 1);
    final Set<List<Object>> repeated = repeated(collector.literals);
    final List<SqlLiteral> literals = collector.literals.stream()
        .filter(c -> !kept.test(c.column(), c.excludes()))
        .filter(c -> !repeated.contains(comparison(c)))
        .map(Compared::literal)
        .collect(Collectors.toCollection(ArrayList::new));
    if (literals.isEmpty()) {
      return new ParameterizedSql(sql, List.of());
    }
    literals.sort(Comparator.comparingInt(l -> start(sql, l.getParserPosition())));
    final StringBuilder text = new StringBuilder();
    final List<Object> values = new ArrayList<>();
    final List<Integer> spans = new ArrayList<>();
    int copied = 0;
    for (SqlLiteral literal : literals) {
      final SqlParserPos pos = literal.getParserPosition();
      final int start = start(sql, pos);
      final int end = SqlParserUtil.lineColToIndex(sql, pos.getEndLineNum(),
          pos.getEndColumnNum()) + 1;
      if (start < copied) {
        // Overlapping positions would mean the parser's positions are not what we think.
        return new ParameterizedSql(sql, List.of());
      }
      // A literal spanning lines has an end position the line/column mapping misplaces.
      if (start < 0 || end <= start || end > sql.length()
          || !spells(sql.substring(start, end), literal)) {
        return new ParameterizedSql(sql, List.of());
      }
      text.append(sql, copied, start).append('?');
      copied = end;
      values.add(value(literal));
      spans.add(start);
      spans.add(end);
    }
    text.append(sql.substring(copied));
    return new ParameterizedSql(text.toString(), values, spans);
  }

  /**
   * The comparisons a query makes more than once: the same column with the same value, as in
   * an OR whose branches share a condition (TPC-H Q19 repeats
   * {@code l_shipinstruct = 'DELIVER IN PERSON'} in each of its three). Such literals stay as
   * written: the planner takes a condition common to every branch out of the OR, and pushes it
   * into the table's shards, only when it sees the branches' values are the same; as
   * parameters they would be three unknowns.
   */
  private static Set<List<Object>> repeated(List<Compared> literals) {
    final Set<List<Object>> seen = new HashSet<>();
    final Set<List<Object>> repeated = new HashSet<>();
    for (Compared compared : literals) {
      final List<Object> comparison = comparison(compared);
      if (!seen.add(comparison)) {
        repeated.add(comparison);
      }
    }
    return repeated;
  }

  /** A column and the value it is compared with, as a key. */
  private static List<Object> comparison(Compared compared) {
    return List.of(compared.column().names, value(compared.literal()));
  }

  private static int start(String sql, SqlParserPos pos) {
    return SqlParserUtil.lineColToIndex(sql, pos.getLineNum(), pos.getColumnNum());
  }

  /** Whether the text at a literal's position is that literal (a sign outside the position,
   * say, would make replacing it wrong). */
  private static boolean spells(String text, SqlLiteral literal) {
    if (literal instanceof SqlNumericLiteral) {
      try {
        return new BigDecimal(text.trim()).compareTo((BigDecimal) value(literal)) == 0;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return text.startsWith("'") && text.endsWith("'") && text.length() >= 2;
  }

  private static Object value(SqlLiteral literal) {
    if (literal instanceof SqlNumericLiteral n) {
      return n.getValueAs(BigDecimal.class);
    }
    return ((SqlCharStringLiteral) literal).getValueAs(String.class);
  }

  /** Whether a literal can stand as a parameter: an exact integer or a plain string. */
  private static boolean replaceable(@Nullable SqlNode node) {
    if (node instanceof SqlNumericLiteral n) {
      return n.isExact() && n.getScale() != null && n.getScale() == 0;
    }
    // A charset or collation prefix (_UTF16'x') is part of the type; keep such literals.
    return node instanceof SqlCharStringLiteral c && c.getNlsString().getCharsetName() == null
        && c.getNlsString().getCollation() == null;
  }

  /** A replaceable literal, the column it is compared with, and whether the comparison is
   * {@code <>} or {@code NOT IN}. */
  private record Compared(SqlLiteral literal, SqlIdentifier column, boolean excludes) {
  }

  /** Walks a query, collecting replaceable literals inside WHERE clauses. */
  private static final class Collector extends SqlBasicVisitor<Void> {
    final List<Compared> literals = new ArrayList<>();
    boolean hasDynamicParams;
    /** SELECTs and joins seen: more than one means the query reads more than one table. */
    int selects;
    private int whereDepth;

    @Override public Void visit(SqlDynamicParam param) {
      hasDynamicParams = true;
      return null;
    }

    @Override public Void visit(SqlCall call) {
      if (call instanceof SqlJoin) {
        selects++;
      }
      if (call instanceof SqlSelect select) {
        selects++;
        final int saved = whereDepth;
        for (SqlNode operand : select.getOperandList()) {
          if (operand != null) {
            // Only the WHERE clause of this SELECT: a nested SELECT decides for itself.
            whereDepth = operand == select.getWhere() ? 1 : 0;
            operand.accept(this);
          }
        }
        whereDepth = saved;
        return null;
      }
      if (whereDepth > 0 && call instanceof SqlBasicCall) {
        collect(call);
      }
      return super.visit(call);
    }

    private void collect(SqlCall call) {
      final List<SqlNode> operands = call.getOperandList();
      if (COMPARISONS.contains(call.getKind()) && operands.size() == 2) {
        final SqlNode left = operands.get(0);
        final SqlNode right = operands.get(1);
        final boolean excludes = call.getKind() == SqlKind.NOT_EQUALS;
        if (left instanceof SqlIdentifier column && replaceable(right)) {
          literals.add(new Compared((SqlLiteral) right, column, excludes));
        } else if (right instanceof SqlIdentifier column && replaceable(left)) {
          literals.add(new Compared((SqlLiteral) left, column, excludes));
        }
      } else if ((call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN)
          && operands.size() == 2 && operands.get(0) instanceof SqlIdentifier column
          && operands.get(1) instanceof SqlNodeList list
          && list.size() < IN_LIST_LIMIT
          && list.stream().allMatch(LiteralParameterizer::replaceable)
          && sameKind(list)) {
        final boolean excludes = call.getKind() == SqlKind.NOT_IN;
        list.forEach(n -> literals.add(new Compared((SqlLiteral) n, column, excludes)));
      }
    }

    private static boolean sameKind(SqlNodeList list) {
      return list.stream().allMatch(n -> n instanceof SqlNumericLiteral)
          || list.stream().allMatch(n -> n instanceof SqlCharStringLiteral);
    }
  }

  /**
   * A query text with {@code ?} where literals were, and the literals' values in order.
   *
   * @param spans where each replaced literal was in the original text: its start and end
   *     offsets, two per value
   */
  record ParameterizedSql(String sql, List<Object> values, List<Integer> spans) {
    ParameterizedSql {
      java.util.Objects.requireNonNull(sql, "sql");
      values = List.copyOf(values);
      spans = List.copyOf(spans);
    }

    ParameterizedSql(String sql, List<Object> values) {
      this(sql, values, List.of());
    }
  }
}
