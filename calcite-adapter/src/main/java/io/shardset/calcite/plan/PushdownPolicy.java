package io.shardset.calcite.plan;

import io.shardset.calcite.ShardTable;

import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Decides which row expressions every shard can evaluate exactly as Calcite would.
 *
 * <p>An allow-list rather than a deny-list: an expression that is not pushed is still
 * evaluated correctly above the scan, while one pushed to a database that reads it
 * differently gives wrong rows. So only standard operators whose meaning is the same on
 * H2, PostgreSQL and other SQL databases are pushed.
 */
final class PushdownPolicy {
  private PushdownPolicy() {
  }

  private static final Set<SqlKind> KINDS = EnumSet.of(
      SqlKind.AND, SqlKind.OR, SqlKind.NOT,
      SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL,
      SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL,
      SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_NOT_TRUE,
      SqlKind.IS_FALSE, SqlKind.IS_NOT_FALSE,
      SqlKind.SEARCH, SqlKind.CAST, SqlKind.CASE, SqlKind.COALESCE,
      SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.MINUS_PREFIX,
      SqlKind.LIKE);

  private static final Set<SqlOperator> FUNCTIONS = Set.of(
      SqlStdOperatorTable.UPPER, SqlStdOperatorTable.LOWER,
      SqlStdOperatorTable.CHAR_LENGTH, SqlStdOperatorTable.CHARACTER_LENGTH,
      SqlStdOperatorTable.CONCAT, SqlStdOperatorTable.ABS);

  /**
   * Functions that count characters: H2 (like Calcite) counts UTF-16 units, PostgreSQL and
   * MariaDB count code points, so {@code CHAR_LENGTH('\uD83D\uDE00')} is 2 on one and 1 on the
   * others. Pushed only where every shard is of one product and so counts alike.
   */
  private static final Set<SqlOperator> COUNTING = Set.of(
      SqlStdOperatorTable.CHAR_LENGTH, SqlStdOperatorTable.CHARACTER_LENGTH);

  /** Whether every shard of these tables can evaluate the expression, and alike. */
  static boolean canPush(RexNode node, ShardTable... tables) {
    return canPush(node, new Shards(oneProduct(tables), tables));
  }

  /** What the shards of the tables have in common. Whether they all have ILIKE is found only
   * when an expression asks, since that reads every shard's dialect, on every rule call over
   * the tables. */
  private static final class Shards {
    private final boolean oneProduct;
    private final ShardTable[] tables;
    private @Nullable Boolean haveIlike;

    Shards(boolean oneProduct, ShardTable[] tables) {
      this.oneProduct = oneProduct;
      this.tables = tables;
    }

    boolean oneProduct() {
      return oneProduct;
    }

    boolean haveIlike() {
      if (haveIlike == null) {
        haveIlike = PushdownPolicy.haveIlike(tables);
      }
      return haveIlike;
    }
  }

  /** Whether every shard of the tables has PostgreSQL's ILIKE: PostgreSQL and H2 do, MariaDB
   * does not. By dialect class: dialects made from metadata say their product is UNKNOWN. */
  private static boolean haveIlike(ShardTable... tables) {
    for (ShardTable table : tables) {
      for (int shard = 0; shard < table.sharded().shardCount(); shard++) {
        final SqlDialect dialect = table.dialect(shard);
        if (!(dialect instanceof PostgresqlSqlDialect || dialect instanceof H2SqlDialect)) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether all shards of the tables are databases of one product. */
  private static boolean oneProduct(ShardTable... tables) {
    final Set<SqlDialect.DatabaseProduct> products = new HashSet<>();
    for (ShardTable table : tables) {
      final SqlDialect.DatabaseProduct product = table.product();
      if (product == null) {
        return false;
      }
      products.add(product);
    }
    return products.size() <= 1;
  }

  private static boolean canPush(RexNode node, Shards shards) {
    if (node instanceof RexInputRef || node instanceof RexDynamicParam) {
      return true;
    }
    if (node instanceof RexLiteral literal) {
      // Interval and other exotic literals print differently per database.
      final SqlTypeFamily family = literal.getType().getSqlTypeName().getFamily();
      return family != SqlTypeFamily.INTERVAL_DAY_TIME
          && family != SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }
    if (node instanceof RexCall call) {
      final boolean known = KINDS.contains(call.getKind())
          || FUNCTIONS.contains(call.getOperator());
      if (!known || isDatetimeArithmetic(call) || hasUnsafeLike(call, shards)
          || isLossyCast(call)
          || !shards.oneProduct() && COUNTING.contains(call.getOperator())) {
        return false;
      }
      return call.getOperands().stream().allMatch(operand -> canPush(operand, shards));
    }
    // Sub-queries, correlation variables, field accesses, window aggregates.
    return false;
  }

  /** Datetime arithmetic renders per database; only plain numeric arithmetic is pushed. */
  private static boolean isDatetimeArithmetic(RexCall call) {
    switch (call.getKind()) {
    case PLUS:
    case MINUS:
    case TIMES:
    case MINUS_PREFIX:
      return !SqlTypeFamily.NUMERIC.contains(call.getType());
    default:
      return false;
    }
  }

  /** LIKE is pushed only in its plain form: a literal pattern without backslashes (H2 and
   * PostgreSQL read {@code \} as the default escape character, Calcite does not), no ESCAPE
   * clause, and not on CHAR values (H2 matches CHAR padding differently). PostgreSQL's ILIKE,
   * of the same kind, only goes to shards that all have it. */
  private static boolean hasUnsafeLike(RexCall call, Shards shards) {
    if (call.getKind() != SqlKind.LIKE) {
      return false;
    }
    if (!(call.getOperator() instanceof SqlLikeOperator like)
        || !like.isCaseSensitive() && !shards.haveIlike()
        || call.getOperands().size() != 2
        || !(call.getOperands().get(1) instanceof RexLiteral pattern)
        || call.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.CHAR) {
      return true;
    }
    final String text = pattern.getValueAs(String.class);
    return text == null || text.indexOf('\\') >= 0;
  }

  /** Casts that can change a value round in the shards but truncate in Calcite (numbers),
   * pad (CHAR), or are dropped by Calcite's SQL writer (narrowing text casts); only casts
   * that cannot change a value are pushed. */
  private static boolean isLossyCast(RexCall call) {
    return call.getKind() == SqlKind.CAST
        && !LosslessCasts.isLossless(call.getOperands().get(0).getType(), call.getType())
        && !isConstantTextToVarchar(call);
  }

  /**
   * A CHAR constant made VARCHAR, as Calcite types {@code UPPER(s) = UPPER('ß')}: the shard
   * computes the constant itself, so that both sides are its own case mapping (Java's
   * {@code UPPER('ß')} is {@code 'SS'}, PostgreSQL's and MariaDB's {@code 'ß'}). A literal
   * with trailing spaces stays above: CHAR padding is where databases differ.
   */
  private static boolean isConstantTextToVarchar(RexCall cast) {
    final RexNode operand = cast.getOperands().get(0);
    return operand.getType().getSqlTypeName() == SqlTypeName.CHAR
        && cast.getType().getSqlTypeName() == SqlTypeName.VARCHAR
        && RexUtil.isConstant(operand) && !hasPaddedLiteral(operand);
  }

  private static boolean hasPaddedLiteral(RexNode node) {
    if (node instanceof RexLiteral literal) {
      final String text = literal.getValueAs(String.class);
      return text != null && text.endsWith(" ");
    }
    return node instanceof RexCall call
        && call.getOperands().stream().anyMatch(PushdownPolicy::hasPaddedLiteral);
  }
}
