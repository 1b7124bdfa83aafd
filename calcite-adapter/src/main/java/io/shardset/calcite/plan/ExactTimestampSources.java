package io.shardset.calcite.plan;

import io.shardset.calcite.runtime.ExactTimestamps;
import io.shardset.calcite.runtime.TimestampParameter;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the TIMESTAMP values finer than a millisecond that a write's input rows take from
 * literals and parameters ({@link ExactTimestamps}): row by row for an
 * {@code INSERT ... VALUES} (its VALUES, projections of them, a UNION ALL of those, as a
 * VALUES of several rows with parameters is planned), and the same in every row for a
 * projection of anything else, also one the shards run (the new values of
 * {@code UPDATE t SET id = id + 1, ts = ?}, which the shards return as Calcite reads them:
 * in milliseconds).
 */
final class ExactTimestampSources {
  /** The precision below which a cast drops microseconds. */
  private static final int MICROSECONDS = 6;

  private ExactTimestampSources() {
  }

  /** The exact values of {@code input}'s fields from position {@code from} on. */
  static ExactTimestamps of(RelNode input, int from) {
    final List<Map<Integer, ExactTimestamps.Source>> rows = perRow(input);
    if (rows != null) {
      return ExactTimestamps.perRow(rows.stream().map(row -> from(row, from)).toList());
    }
    // A read the shards run, with the new values of an UPDATE among its columns.
    final RelNode read = input instanceof AbstractShardScan scan ? top(scan.spec().pushed())
        : input;
    final List<RexNode> projects = projects(read);
    if (projects == null) {
      return ExactTimestamps.NONE;
    }
    return ExactTimestamps.everyRow(from(sources(projects, Map.of()), from));
  }

  /** Each row's exact values, or null when the input's rows are not known one by one: a
   * VALUES, a projection of such rows, a UNION ALL of them. */
  private static @Nullable List<Map<Integer, ExactTimestamps.Source>> perRow(RelNode input) {
    if (input instanceof Values values) {
      final List<Map<Integer, ExactTimestamps.Source>> rows = new ArrayList<>();
      for (List<RexLiteral> tuple : values.getTuples()) {
        rows.add(sources(tuple, Map.of()));
      }
      return rows;
    }
    if (input instanceof Union union && union.all) {
      final List<Map<Integer, ExactTimestamps.Source>> rows = new ArrayList<>();
      for (RelNode branch : union.getInputs()) {
        final List<Map<Integer, ExactTimestamps.Source>> branchRows = perRow(branch);
        if (branchRows == null) {
          return null;
        }
        rows.addAll(branchRows);
      }
      return rows;
    }
    final List<RexNode> projects = projects(input);
    final List<Map<Integer, ExactTimestamps.Source>> inputRows =
        projects == null ? null : perRow(input.getInput(0));
    if (inputRows == null) {
      return null;
    }
    final List<Map<Integer, ExactTimestamps.Source>> rows = new ArrayList<>();
    for (Map<Integer, ExactTimestamps.Source> inputRow : inputRows) {
      rows.add(sources(projects, inputRow));
    }
    return rows;
  }

  /** The sources of the expressions that have one, by position. */
  private static Map<Integer, ExactTimestamps.Source> sources(List<? extends RexNode> exprs,
      Map<Integer, ExactTimestamps.Source> inputRow) {
    final Map<Integer, ExactTimestamps.Source> fields = new HashMap<>();
    for (int i = 0; i < exprs.size(); i++) {
      final ExactTimestamps.Source source = source(exprs.get(i), inputRow);
      if (source != null) {
        fields.put(i, source);
      }
    }
    return fields;
  }

  /** The fields from position {@code from} on. */
  private static Map<Integer, ExactTimestamps.Source> from(
      Map<Integer, ExactTimestamps.Source> fields, int from) {
    final Map<Integer, ExactTimestamps.Source> kept = new HashMap<>(fields);
    kept.keySet().removeIf(i -> i < from);
    return kept;
  }

  /** The relation under the filters and sorts at the top of a pushed read, which keep its
   * fields. */
  private static RelNode top(RelNode pushed) {
    RelNode top = pushed;
    while (top instanceof Filter || top instanceof Sort) {
      top = top.getInput(0);
    }
    return top;
  }

  /** The expressions of a projection, or of a Calc without a condition; else null. */
  private static @Nullable List<RexNode> projects(RelNode input) {
    if (input instanceof Project project) {
      return project.getProjects();
    }
    if (input instanceof Calc calc && calc.getProgram().getCondition() == null) {
      final RexProgram program = calc.getProgram();
      return program.getProjectList().stream().map(program::expandLocalRef)
          .map(RexNode.class::cast).toList();
    }
    return null;
  }

  /**
   * Where a TIMESTAMP expression's exact value comes from: a literal finer than a
   * millisecond, a parameter, a field of the input row that has one, or a cast of one of
   * those that keeps microseconds; else null.
   */
  private static ExactTimestamps.@Nullable Source source(RexNode e,
      Map<Integer, ExactTimestamps.Source> inputRow) {
    if (e.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP) {
      return null;
    }
    if (e instanceof RexLiteral literal) {
      final TimestampString value = literal.getValueAs(TimestampString.class);
      if (value == null) {
        return null;
      }
      final LocalDateTime exact = LocalDateTime.parse(value.toString().replace(' ', 'T'));
      return TimestampParameter.isFinerThanMillis(exact)
          ? new ExactTimestamps.Literal(exact) : null;
    }
    if (e instanceof RexDynamicParam parameter) {
      return new ExactTimestamps.Parameter(parameter.getIndex());
    }
    if (e instanceof RexInputRef ref) {
      return inputRow.get(ref.getIndex());
    }
    if (e.getKind() == SqlKind.CAST && e.getType().getPrecision() >= MICROSECONDS) {
      return source(((RexCall) e).getOperands().get(0), inputRow);
    }
    return null;
  }
}
