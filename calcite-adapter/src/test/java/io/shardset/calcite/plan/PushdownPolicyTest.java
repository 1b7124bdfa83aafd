package io.shardset.calcite.plan;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only expressions that every shard evaluates exactly as Calcite does are pushed. */
class PushdownPolicyTest {
  private final RelDataTypeFactory types = new JavaTypeFactoryImpl();
  private final RexBuilder rex = new RexBuilder(types);
  private final RelDataType varchar8 = types.createSqlType(SqlTypeName.VARCHAR, 8);
  private final RelDataType varchar = types.createSqlType(SqlTypeName.VARCHAR);
  private final RelDataType char8 = types.createSqlType(SqlTypeName.CHAR, 8);
  private final RelDataType integer = types.createSqlType(SqlTypeName.INTEGER);
  private final RelDataType bigint = types.createSqlType(SqlTypeName.BIGINT);
  private final RelDataType decimal = types.createSqlType(SqlTypeName.DECIMAL, 10, 2);

  @Test void plainComparisonsAndLikeArePushed() {
    assertTrue(PushdownPolicy.canPush(
        rex.makeCall(SqlStdOperatorTable.EQUALS, ref(varchar8), rex.makeLiteral("EU"))));
    assertTrue(PushdownPolicy.canPush(
        rex.makeCall(SqlStdOperatorTable.LIKE, ref(varchar8), rex.makeLiteral("E%"))));
  }

  @Test void likeWithBackslashOrOnCharIsNotPushed() {
    // H2 and PostgreSQL read a backslash as the escape character; Calcite does not.
    assertFalse(PushdownPolicy.canPush(
        rex.makeCall(SqlStdOperatorTable.LIKE, ref(varchar8), rex.makeLiteral("a\\_b"))));
    assertFalse(PushdownPolicy.canPush(
        rex.makeCall(SqlStdOperatorTable.LIKE, ref(char8), rex.makeLiteral("ab"))));
  }

  @Test void onlyCastsThatCannotChangeAValueArePushed() {
    assertTrue(PushdownPolicy.canPush(rex.makeCast(bigint, ref(integer))));
    assertTrue(PushdownPolicy.canPush(rex.makeCast(varchar, ref(varchar8))));
    // Rounding (shards) versus truncation (Calcite), padding, and narrowing that Calcite's
    // SQL writer drops.
    assertFalse(PushdownPolicy.canPush(rex.makeCast(integer, ref(decimal))));
    assertFalse(PushdownPolicy.canPush(rex.makeCast(char8, ref(varchar8))));
    assertFalse(PushdownPolicy.canPush(
        rex.makeCast(types.createSqlType(SqlTypeName.VARCHAR, 1), ref(varchar8))));
  }

  @Test void unboundedTextIsNotLosslesslyNarrowed() {
    assertFalse(LosslessCasts.isLossless(varchar, types.createSqlType(SqlTypeName.VARCHAR, 2)));
    assertTrue(LosslessCasts.isLossless(varchar8, varchar));
    assertTrue(LosslessCasts.isLossless(varchar, varchar));
    assertTrue(LosslessCasts.isLossless(integer,
        types.createSqlType(SqlTypeName.DECIMAL, 12, 2)));
    assertFalse(LosslessCasts.isLossless(integer, decimal)); // 8 digits before the point
    assertFalse(LosslessCasts.isLossless(decimal, integer));
  }

  private RexNode ref(RelDataType type) {
    return rex.makeInputRef(type, 0);
  }
}
