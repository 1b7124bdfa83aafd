package io.shardset.calcite.plan;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Canonical texts of pushed trees: equal exactly when the trees are, built once per
 * operator. */
class PushedDigestTest {
  private final RelDataTypeFactory types = new JavaTypeFactoryImpl();
  private final RexBuilder rex = new RexBuilder(types);
  private final RelOptCluster cluster =
      RelOptCluster.create(new HepPlanner(HepProgram.builder().build()), rex);
  private final RelDataType row = types.builder()
      .add("ID", SqlTypeName.INTEGER).add("NAME", SqlTypeName.VARCHAR, 10).build();

  private RelNode filtered(int id) {
    final RelNode leaf = LogicalValues.createEmpty(cluster, row);
    final RexNode condition = rex.makeCall(SqlStdOperatorTable.EQUALS,
        rex.makeInputRef(leaf, 0), rex.makeExactLiteral(BigDecimal.valueOf(id)));
    return LogicalFilter.create(leaf, condition);
  }

  private RelNode projected(RelNode input, int column) {
    return LogicalProject.create(input, List.of(), List.of(rex.makeInputRef(input, column)),
        List.of("C"), Set.of());
  }

  private static String text(RelNode rel) {
    return PushedDigest.texts(rel, List.of()).get(rel);
  }

  @Test void treesBuiltApartHaveOneTextExactlyWhenEqual() {
    assertEquals(text(projected(filtered(7), 1)), text(projected(filtered(7), 1)));
    assertNotEquals(text(projected(filtered(7), 1)), text(projected(filtered(8), 1)));
    assertNotEquals(text(projected(filtered(7), 1)), text(projected(filtered(7), 0)));
    assertNotEquals(text(filtered(7)), text(projected(filtered(7), 0)));
  }

  @Test void textsHoldEveryDigestAttributeOfEveryOperator() {
    final RelNode join = LogicalJoin.create(filtered(1), filtered(2), List.of(),
        rex.makeLiteral(true), Set.of(), JoinRelType.INNER);
    final String text = text(projected(join, 3));
    // What Calcite's own digest of the tree prints, operator by operator.
    for (String line : RelOptUtil.toString(projected(join, 3),
        SqlExplainLevel.DIGEST_ATTRIBUTES).split("\n")) {
      final String operator = line.strip();
      final String name = operator.substring(0, operator.indexOf('('));
      assertTrue(text.contains(name), () -> name + " in " + text);
      for (String term : operator.substring(name.length() + 1, operator.length() - 1)
          .split(", (?=[a-z]+=\\[)")) {
        assertTrue(text.contains(term), () -> term + " in " + text);
      }
    }
  }

  @Test void operatorsAlreadyRenderedAreReused() {
    final RelNode below = filtered(7);
    final RelNode above = projected(below, 1);
    // A text the renderer could not have made: reused, not rendered again.
    final Map<RelNode, String> texts =
        PushedDigest.texts(above, List.of(Map.of(below, "KNOWN")));
    assertEquals("KNOWN", texts.get(below));
    assertTrue(texts.get(above).contains("input=[KNOWN]"), texts.get(above));
    assertEquals(3, texts.size()); // the leaf's text too, for the trees to come
  }
}
