package io.shardset.calcite.prepare;

import io.shardset.calcite.guard.ConnectionScatter;
import io.shardset.calcite.guard.ShardHints;
import io.shardset.calcite.plan.PlannedReaches;
import io.shardset.execution.StatementTracker;
import io.shardset.model.ScatterLimit;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * {@link CalcitePrepareImpl} that answers {@code prepareSql} from a {@link PlanCache}, planning
 * only on a miss; see {@link PlanCache} for the design. A semicolon ending the statement is
 * dropped first ({@link StatementText}). Every plan it returns, cached or not, fails each run
 * alike when its generated code cannot initialise ({@link InitFailureSignature}).
 *
 * <p>{@code EXPLAIN PLAN FOR} a query shows the plan that the query itself runs on this
 * connection: the shared plan of its parameterized text (with {@code ?N} where its literals
 * were) or the plan of its own text, whichever a prepare of the query would take, as that plan
 * was written down when it was made; after a shared plan, a line {@code ?N = value} for each
 * literal the query binds to it. EXPLAIN in another format or detail level plans the same text
 * again. Calcite explains what this does not recognise (a query with {@code ?} of its own,
 * say) from the statement's text, as {@code jdbc:calcite:} does.
 */
public final class PlanCachingPrepare extends CalcitePrepareImpl {
  /** A statement whose EXPLAIN result has the columns and row form of every EXPLAIN. */
  private static final String EXPLAIN_SHAPE = "EXPLAIN PLAN WITH TYPE FOR VALUES 0";

  private final PlanCache cache;
  private final StatementTracker statements;

  public PlanCachingPrepare(PlanCache cache, StatementTracker statements) {
    this.cache = Objects.requireNonNull(cache, "cache");
    this.statements = Objects.requireNonNull(statements, "statements");
  }

  @Override public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query,
      Type elementType, long maxRowCount) {
    final long started = System.nanoTime();
    try {
      return ShardHints.withBlockHintsFollowed(
          () -> prepareFollowingHints(context, query, elementType, maxRowCount));
    } finally {
      // The statement being executed, if any, shows its planning time.
      statements.planned(System.nanoTime() - started);
    }
  }

  private <T> CalciteSignature<T> prepareFollowingHints(Context context, Query<T> query,
      Type elementType, long maxRowCount) {
    if (query.sql == null) {
      return InitFailureSignature.of(super.prepareSql(context, query, elementType,
          maxRowCount));
    }
    final String sql = StatementText.withoutTerminator(query.sql);
    final LockingClause locking = LockingClause.of(sql);
    if (locking != null) {
      return new LockingSignature<>(query.sql, prepareFollowingHints(context,
          CalcitePrepare.Query.of(locking.query()), elementType, maxRowCount));
    }
    final @Nullable Planned<T> templated = templated(context, sql, elementType, maxRowCount);
    if (templated != null) {
      templated.reaches().check(() -> connectionScatter(context));
      return templated.signature();
    }
    final SqlNode parsed = parseStatement(context, sql);
    if (parsed != null && parsed.getKind().belongsTo(SqlKind.QUERY)) {
      final Planned<T> planned = planned(context, sql, parsed, elementType, maxRowCount, true);
      planned.reaches().check(() -> connectionScatter(context));
      return planned.signature();
    }
    if (parsed instanceof SqlExplain explain) {
      final @Nullable CalciteSignature<T> explained =
          explained(context, sql, explain, elementType, maxRowCount);
      if (explained != null) {
        return explained;
      }
    }
    // UPDATE and DELETE are planned each time: their guardrail is checked the same way.
    final PlanCache.CachedPlan other = uncached(context, sql, elementType, maxRowCount, false);
    other.reaches().check(() -> connectionScatter(context));
    @SuppressWarnings("unchecked")
    final CalciteSignature<T> signature = (CalciteSignature<T>) other.signature();
    return signature;
  }

  /** The scatter limit of the preparing connection's own, or null. */
  private static @Nullable ScatterLimit connectionScatter(Context context) {
    return context.getDataContext().getQueryProvider() instanceof CalciteConnection connection
        ? ConnectionScatter.limit(connection.getProperties()) : null;
  }

  /**
   * What a query runs: the shared plan of its parameterized text, bound to its literals, or
   * else the plan of its own text. Literals compared with a column whose value decides the
   * plan's shape stay in the text ({@link RoutingColumns}), so that such a statement gets the
   * plan {@code jdbc:calcite:} makes of it, one plan per distinct value.
   */
  @SuppressWarnings("unchecked")
  private <T> Planned<T> planned(Context context, String sql, SqlNode query, Type elementType,
      long maxRowCount, boolean remember) {
    final RoutingColumns routing = cache.routingColumns(context);
    final LiteralParameterizer.ParameterizedSql normalized =
        LiteralParameterizer.parameterize(sql, query, routing);
    if (!normalized.values().isEmpty()) {
      final @Nullable Planned<T> shared = boundOrNull(context, sql, normalized.sql(),
          normalized.values(), elementType, maxRowCount);
      if (shared != null) {
        if (remember) {
          cache.template(context, sql, normalized);
        }
        return shared;
      }
    }
    final PlanCache.CachedPlan own = cached(context, sql, elementType, maxRowCount);
    return new Planned<>((CalciteSignature<T>) own.signature(), own.explanation(), sql,
        List.of(), own.reaches());
  }

  /**
   * What a query runs when a template of its shape parameterizes it ({@link LiteralTemplates}):
   * the shared plan of the parameterized text bound to its literals, found without parsing the
   * query; null if no template fits, or the shared plan or the literals do not (the query is
   * then parsed, as any other).
   */
  private <T> @Nullable Planned<T> templated(Context context, String sql, Type elementType,
      long maxRowCount) {
    final LiteralTemplates.@Nullable Match match = cache.templated(context, sql);
    return match == null ? null
        : boundOrNull(context, sql, match.sql(), match.values(), elementType, maxRowCount);
  }

  /**
   * The shared plan of a parameterized text bound to a query's literals, or null if that text
   * does not prepare or a literal does not fit its parameter (the query is then prepared as
   * written).
   *
   * @param sql the query's own text
   * @param parameterized the text with {@code ?} where its literals were
   * @param literals the literals' values, in order
   */
  @SuppressWarnings("unchecked")
  private <T> @Nullable Planned<T> boundOrNull(Context context, String sql,
      String parameterized, List<Object> literals, Type elementType, long maxRowCount) {
    final PlanCache.@Nullable CachedPlan shared = sharedOrNull(context, parameterized,
        elementType, maxRowCount);
    final @Nullable Object @Nullable [] values = shared == null ? null
        : LiteralValues.convert(literals, shared.signature().parameters);
    if (shared == null || values == null) {
      return null;
    }
    return new Planned<>(new BoundSignature<>(sql, (CalciteSignature<T>) shared.signature(),
        values), shared.explanation(), parameterized, literals, shared.reaches());
  }

  /** The plan of the parameterized text, or null if that text does not prepare although the
   * literal one may (the statement is then prepared as written, and any error is its own). */
  private PlanCache.@Nullable CachedPlan sharedOrNull(Context context, String sql,
      Type elementType, long maxRowCount) {
    try {
      return cached(context, sql, elementType, maxRowCount);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The cached plan of a text, planned on a miss, with the plan's EXPLAIN text taken from
   * the plan Calcite is about to implement (what its EXPLAIN PLAN FOR would print). */
  private PlanCache.CachedPlan cached(Context context, String sql, Type elementType,
      long maxRowCount) {
    // The connection's own root schema: getRootSchema() is a fresh snapshot per prepare.
    final PlanCache.Key key = new PlanCache.Key(sql, context.getDefaultSchemaPath(),
        elementType.getTypeName(), maxRowCount);
    return cache.get(context, key,
        () -> uncached(context, sql, elementType, maxRowCount, true));
  }

  /** Plans a text, keeping the plan's fixed shard reaches and, if {@code explain}, its EXPLAIN
   * text, as Calcite is about to implement it. */
  private PlanCache.CachedPlan uncached(Context context, String sql, Type elementType,
      long maxRowCount, boolean explain) {
    final AtomicReference<@Nullable String> explanation = new AtomicReference<>();
    final AtomicReference<PlannedReaches> reaches = new AtomicReference<>(PlannedReaches.NONE);
    final Consumer<RelRoot> writer = root -> {
      if (explain) {
        explanation.set(RelOptUtil.dumpPlan("", root.rel, SqlExplainFormat.TEXT,
            SqlExplainLevel.EXPPLAN_ATTRIBUTES));
      }
      reaches.set(PlannedReaches.of(root.rel));
    };
    final CalciteSignature<Object> plan;
    try (Hook.Closeable ignored = Hook.PLAN_BEFORE_IMPLEMENTATION.addThread(writer)) {
      plan = super.prepareSql(context, Query.of(sql), elementType, maxRowCount);
    }
    return new PlanCache.CachedPlan(InitFailureSignature.of(plan), explanation.get(),
        reaches.get());
  }

  /**
   * {@code EXPLAIN} of a query, showing the plan the query runs (see the class comment), or
   * null where Calcite explains the statement from its text: not a query, a query with
   * parameters of its own, a text this cannot split into EXPLAIN and query, or a query that
   * does not prepare (Calcite then explains what it can, as uncached).
   */
  private <T> @Nullable CalciteSignature<T> explained(Context context, String sql,
      SqlExplain explain, Type elementType, long maxRowCount) {
    final SqlNode explicandum = explain.getExplicandum();
    if (!explicandum.getKind().belongsTo(SqlKind.QUERY) || explain.getDynamicParamCount() > 0) {
      return null;
    }
    final @Nullable String text = ExplainedQuery.of(sql, explain);
    final @Nullable SqlNode query = text == null ? null : parseStatement(context, text);
    if (text == null || query == null || !query.toString().equals(explicandum.toString())) {
      return null;
    }
    final Planned<T> planned;
    try {
      planned = planned(context, text, query, elementType, maxRowCount, false);
    } catch (RuntimeException e) {
      return null;
    }
    final @Nullable String explanation = planned.explanation();
    if (explanation != null && explain.getDepth() == SqlExplain.Depth.PHYSICAL
        && explain.getFormat() == SqlExplainFormat.TEXT
        && explain.getDetailLevel() == SqlExplainLevel.EXPPLAN_ATTRIBUTES) {
      return ExplanationSignature.of(
          super.prepareSql(context, Query.of(EXPLAIN_SHAPE), elementType, maxRowCount),
          sql, explanation + ExplanationSignature.parameters(planned.literals()));
    }
    return InitFailureSignature.of(super.prepareSql(context,
        Query.of(ExplainedQuery.prefix(sql, text) + planned.text()), elementType,
        maxRowCount));
  }

  /**
   * What a query runs.
   *
   * @param signature the plan, bound to the query's literals when shared
   * @param explanation the plan's EXPLAIN text, if known
   * @param text the text the plan was made from: the parameterized text of a shared plan
   * @param literals the values the query binds to a shared plan's parameters, in order
   * @param reaches the plan's fixed shard reaches, for its scatter guardrails
   */
  private record Planned<T>(CalciteSignature<T> signature, @Nullable String explanation,
      String text, List<Object> literals, PlannedReaches reaches) {
  }

  /** Calcite's statement preparation, with IN lists of any length converted as Calcite
   * converts short ones (see {@link InListConverter}), a query block's hints given to its
   * tables ({@link BlockHintConverter}), and parameters that their place gives no
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
      @Override protected SqlValidator createSqlValidator(CatalogReader reader,
          UnaryOperator<SqlValidator.Config> configTransform) {
        return ParameterTypingValidator.create(context, (CalciteCatalogReader) reader,
            configTransform);
      }

      @Override protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator,
          CatalogReader reader, SqlToRelConverter.Config config) {
        return new BlockHintConverter(this, validator, reader, cluster, convertletTable,
            config.withTopDownGeneralDecorrelationEnabled(
                context.config().topDownGeneralDecorrelationEnabled())
                .withHintStrategyTable(ShardHints.STRATEGIES));
      }
    };
  }

  /** Calcite's conversions, with casts of fractions to integers rounding
   * ({@link RoundingCasts}) and global sequences' next values ({@link ShardConvertlets}). */
  @Override protected SqlRexConvertletTable createConvertletTable() {
    return ShardConvertlets.INSTANCE;
  }

  /** The statement parsed as Calcite will parse it, or null if it does not parse (Calcite
   * reports it). UPSERT and some MERGE statements are refused here
   * ({@link UnsupportedStatements}). */
  private @Nullable SqlNode parseStatement(Context context, String sql) {
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
    return node;
  }
}
