package io.shardset.calcite.jdbc;

import io.shardset.calcite.plan.ShardPrograms;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Holder;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Type;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * {@link CalcitePrepareImpl} that answers {@code prepareSql} from a {@link PlanCache}, planning
 * only on a miss; see {@link PlanCache} for the design. A semicolon ending the statement is
 * dropped first ({@link StatementText}). Every plan it returns, cached or not, fails each run
 * alike when its generated code cannot initialise ({@link InitFailureSignature}).
 */
final class PlanCachingPrepare extends CalcitePrepareImpl {
  private final PlanCache cache;

  PlanCachingPrepare(PlanCache cache) {
    this.cache = Objects.requireNonNull(cache, "cache");
  }

  @Override public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query,
      Type elementType, long maxRowCount) {
    if (query.sql == null) {
      return InitFailureSignature.of(super.prepareSql(context, query, elementType,
          maxRowCount));
    }
    final String sql = StatementText.withoutTerminator(query.sql);
    final SqlNode parsed = parseQuery(context, sql);
    if (parsed == null) {
      return InitFailureSignature.of(super.prepareSql(context, Query.of(sql), elementType,
          maxRowCount));
    }
    final LiteralParameterizer.ParameterizedSql normalized =
        LiteralParameterizer.parameterize(sql, parsed);
    if (!normalized.values().isEmpty()) {
      final @Nullable CalciteSignature<T> shared = sharedOrNull(context, normalized.sql(),
          elementType, maxRowCount);
      final @Nullable Object @Nullable [] values = shared == null ? null
          : LiteralValues.convert(normalized.values(), shared.parameters);
      if (shared != null && values != null) {
        return new BoundSignature<>(sql, shared, values);
      }
    }
    return cached(context, sql, elementType, maxRowCount);
  }

  /** The plan of the parameterized text, or null if that text does not prepare although the
   * literal one may (the statement is then prepared as written, and any error is its own). */
  private <T> @Nullable CalciteSignature<T> sharedOrNull(Context context, String sql,
      Type elementType, long maxRowCount) {
    try {
      return cached(context, sql, elementType, maxRowCount);
    } catch (RuntimeException e) {
      return null;
    }
  }

  @SuppressWarnings("unchecked")
  private <T> CalciteSignature<T> cached(Context context, String sql, Type elementType,
      long maxRowCount) {
    // The connection's own root schema: getRootSchema() is a fresh snapshot per prepare.
    final PlanCache.Key key = new PlanCache.Key(sql, context.getDefaultSchemaPath(),
        elementType.getTypeName(), maxRowCount);
    return (CalciteSignature<T>) cache.get(context.getMutableRootSchema(), key,
        () -> InitFailureSignature.of(
            super.prepareSql(context, Query.of(sql), elementType, maxRowCount)));
  }

  /** Calcite's statement preparation, with IN lists of any length converted as Calcite
   * converts short ones (see {@link InListConverter}) and parameters that their place gives no
   * type typed as VARCHAR (see {@link ParameterTypingValidator}). The statement is built as
   * Calcite's own method builds it, because the converter needs the cluster, which Calcite's
   * statement keeps private; it differs only in its converter's and validator's class. */
  @Override protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
      CalciteCatalogReader catalogReader, RelOptPlanner planner) {
    final JavaTypeFactory typeFactory = context.getTypeFactory();
    final RelOptCluster cluster = createCluster(planner, new RexBuilder(typeFactory));
    return new CalcitePreparingStmt(this, context, catalogReader, typeFactory,
        context.getRootSchema(),
        elementType == Object[].class ? EnumerableRel.Prefer.ARRAY : EnumerableRel.Prefer.CUSTOM,
        cluster, enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE,
        createConvertletTable()) {
      /** ShardSet's program ({@link ShardPrograms}), unless a test hooks in its own. */
      @Override protected Program getProgram() {
        final Holder<@Nullable Program> hooked = Holder.empty();
        Hook.PROGRAM.run(hooked);
        final @Nullable Program program = hooked.get();
        return program != null ? program : ShardPrograms.standard();
      }

      @Override protected SqlValidator createSqlValidator(CatalogReader reader,
          UnaryOperator<SqlValidator.Config> configTransform) {
        return ParameterTypingValidator.create(context, (CalciteCatalogReader) reader,
            configTransform);
      }

      @Override protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator,
          CatalogReader reader, SqlToRelConverter.Config config) {
        return new InListConverter(this, validator, reader, cluster, convertletTable,
            config.withTopDownGeneralDecorrelationEnabled(
                context.config().topDownGeneralDecorrelationEnabled()));
      }
    };
  }

  /** The statement parsed as Calcite will parse it, or null if it is not a query (DDL and DML
   * act at prepare time; EXPLAIN is left to Calcite) or does not parse (Calcite reports it).
   * UPSERT and some MERGE statements are refused here ({@link UnsupportedStatements}). */
  private @Nullable SqlNode parseQuery(Context context, String sql) {
    final CalciteConnectionConfig config = context.config();
    SqlParser.Config parserConfig = parserConfig()
        .withQuotedCasing(config.quotedCasing())
        .withUnquotedCasing(config.unquotedCasing())
        .withQuoting(config.quoting())
        .withConformance(config.conformance())
        .withCaseSensitive(config.caseSensitive());
    final SqlParserImplFactory parserFactory =
        config.parserFactory(SqlParserImplFactory.class, null);
    if (parserFactory != null) {
      parserConfig = parserConfig.withParserFactory(parserFactory);
    }
    final SqlNode node;
    try {
      node = createParser(sql, parserConfig).parseStmt();
    } catch (SqlParseException e) {
      return null;
    }
    UnsupportedStatements.check(node);
    return node.getKind().belongsTo(SqlKind.QUERY) ? node : null;
  }
}
