package io.shardset.calcite.prepare;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.plan.PlannedReaches;
import io.shardset.calcite.relations.StatementTables;
import io.shardset.calcite.relations.SystemTable;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.lookup.LikePattern;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The process's cache of prepared plans ({@link CalciteSignature}s) keyed by normalized SQL
 * text, so that a statement prepared again, on any connection, or differing only in
 * literals, is not parsed, planned and compiled again.
 *
 * <h2>Where it hooks in</h2>
 * Calcite 1.42 has no plan cache: {@code CalciteConnectionImpl.parseQuery} asks the driver's
 * {@code CalcitePrepare} to {@code prepareSql} every statement, for {@code prepareStatement},
 * {@code Statement.executeQuery} and Avatica's {@code JdbcMeta} alike. The hook is therefore
 * {@link PlanCachingPrepare}, a {@code CalcitePrepareImpl} overriding {@code prepareSql}, installed
 * by {@link io.shardset.calcite.jdbc.ShardSetDriver} ({@code jdbc:shardset:}, otherwise
 * identical to {@code jdbc:calcite:}). {@code jdbc:calcite:} keeps working uncached: Calcite
 * registers its own driver for that prefix and its prepare factory is fixed at construction.
 * An Avatica server gets the cache by giving {@code JdbcMeta} a {@code jdbc:shardset:} URL.
 *
 * <h2>Scope and keys</h2>
 * A plan is shared by every connection of the process that would make the same plan: the key
 * is the normalized text, the default schema path, the element type and the maximum row
 * count, within a scope of
 * <ul>
 *   <li>the tables of each ShardSet schema of the connection, by identity ({@link
 *   ShardSchema#tablesIdentity()}): the connections that open on the same version of a model
 *   share them, and a plan holds them (its scans stash per-shard SQL built from them);</li>
 *   <li>the connection's settings that can change a plan ({@link PlanSettings}).</li>
 * </ul>
 * Nothing else of the connection that made a plan is in it: a cached plan is handed to each
 * connection with that connection's root schema ({@link RootedSignature}), and at execution
 * every scan finds its session, transaction, statement, cancel flag, time zone and sort memory
 * through the data context of the connection that runs it. A connection whose root holds
 * schemas other than ShardSet's, the statement tables and Calcite's metadata (a model with a
 * JDBC schema beside, say) keeps plans of its own, as before this cache was shared.
 * Only queries are cached; DDL and DML run at prepare time, so they always go to
 * Calcite. {@code EXPLAIN PLAN FOR} a query answers with the plan the query runs, from this
 * cache: each cached plan keeps the text Calcite's EXPLAIN would print of it, written down when
 * the plan was made (see {@link PlanCachingPrepare}).
 *
 * <h2>Literal parameterization</h2>
 * {@link LiteralParameterizer} replaces a literal by {@code ?} only where that cannot change the
 * plan's meaning: an exact integer or character-string literal compared ({@code = <> < <= > >=})
 * with a column, or every element of a column's {@code IN}/{@code NOT IN} list, in a WHERE
 * clause, unless the column is one whose literals decide the plan's shape, such as a composite
 * table's partition column or a subpartition column ({@link RoutingColumns}): those stay in the
 * text, so that the statement plans as on {@code jdbc:calcite:}, once per distinct value.
 * Everything else stays literal and part of the key: LIMIT/OFFSET, GROUP BY ordinals,
 * select-list and HAVING literals, LIKE patterns, decimals (a parameter would take the column's
 * scale), dates and timestamps. Statements that already carry {@code ?} parameters are only
 * cached by exact text. The cached plan is the plan of the normalized text, so its shard scans
 * see {@code ?N} and prune at execution by the values bound for this statement
 * ({@code ShardQuery.targets}), never by the values of the statement that was planned first.
 * The literal values are bound by wrapping the plan's bindable with a data context that answers
 * {@code ?N}; a value that does not fit the parameter's inferred type exactly (an integer too
 * large for an INTEGER column) makes the statement fall back to its exact text.
 *
 * <h2>Bounds and invalidation</h2>
 * The process keeps at most {@code maximumSize} shared plans, least recently used evicted
 * first, and each connection with plans of its own as many. A schema that takes the tables of
 * a newer version of its model file (a shard joined or left) has other tables, so its
 * statements are planned again on them; the plans of the older tables serve the connections
 * that still have them (a transaction that began before) and are evicted once unused. Tables
 * built anew for a connection that opens after {@code ModelTables.MAX_AGE} are other tables
 * too, so the statements of the connections that open on them are planned once more. {@link
 * #invalidate(CalciteSchema)} and {@link #invalidateAll()} drop plans explicitly (after adding
 * tables to a live connection's schema, say). Thread-local planner hooks ({@code Hook.PROGRAM},
 * ...) are not part of the key.
 */
public final class PlanCache {
  /** Plans kept, in the process and per connection with plans of its own, unless a size is
   * given. */
  public static final int DEFAULT_MAXIMUM_SIZE = 1000;

  /** The schemas of a connection's root that hold no plan-specific state of the connection. */
  private static final Set<String> PORTABLE_SCHEMAS =
      Set.of(SystemTable.SCHEMA, StatementTables.SCHEMA);

  private final int maximumSize;
  /** The plans every connection whose root holds only portable schemas shares. */
  private final Cache<Planned, CachedPlan> shared;
  /** What each connection's root schema is to this cache, found on its first prepare. */
  private final Cache<CalciteSchema, Root> roots = CacheBuilder.newBuilder().weakKeys().build();
  /** How statements of each shape were parameterized, shared by the process's connections. */
  private final LiteralTemplates templates;
  private final AtomicLong plans = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();

  /** Identity of a cached plan within its scope. */
  record Key(String sql, List<String> defaultSchemaPath, String elementType, long maxRowCount) {
    Key {
      Objects.requireNonNull(sql, "sql");
      defaultSchemaPath = List.copyOf(defaultSchemaPath);
      Objects.requireNonNull(elementType, "elementType");
    }
  }

  /**
   * A plan and what {@code EXPLAIN PLAN FOR} shows of it.
   *
   * @param signature the plan
   * @param explanation the plan's text as Calcite's {@code EXPLAIN PLAN FOR} writes it,
   *     taken from the plan itself when it was made; null if none was seen
   * @param reaches the plan's scans whose shards it fixes, for their scatter guardrails
   */
  record CachedPlan(CalciteSignature<?> signature, @Nullable String explanation,
      PlannedReaches reaches) {
    CachedPlan {
      Objects.requireNonNull(signature, "signature");
      Objects.requireNonNull(reaches, "reaches");
    }

    /** The plan as a connection with root schema {@code root} runs it. */
    CachedPlan rootedAt(CalciteSchema root) {
      return new CachedPlan(RootedSignature.of(signature, root), explanation, reaches);
    }
  }

  /**
   * A connection's root schema as this cache sees it.
   *
   * @param schemas the root's ShardSet schemas, found once: a connection's schemas stay
   * @param settings the connection's plan settings
   * @param own the connection's own plans, or null if it shares the process's
   * @param routing the columns whose literals its plans keep
   */
  private record Root(List<ShardSchema> schemas, PlanSettings settings,
      @Nullable Cache<Planned, CachedPlan> own, RoutingColumns routing) {
    /** The scope of a plan made now. */
    Scope scope() {
      return new Scope(tablesNow(schemas), settings);
    }
  }

  /** The tables each schema has now. */
  private static List<SameTables> tablesNow(List<ShardSchema> schemas) {
    final List<SameTables> tables = new ArrayList<>(schemas.size());
    for (ShardSchema schema : schemas) {
      tables.add(new SameTables(schema.tablesIdentity()));
    }
    return tables;
  }

  /** Tables compared by identity: those of one build of one model version. */
  private record SameTables(Object tables) {
    @Override public boolean equals(@Nullable Object o) {
      return o instanceof SameTables other && other.tables == tables;
    }

    @Override public int hashCode() {
      return System.identityHashCode(tables);
    }
  }

  /** What a plan was made on: the tables of each ShardSet schema, and the plan settings. */
  private record Scope(List<SameTables> tables, PlanSettings settings) {
  }

  /** A key within the scope it was planned in: a plan of other tables is never found. */
  private record Planned(Key key, Scope scope) {
  }

  /** Creates a cache keeping at most {@code maximumSize} shared plans. */
  public PlanCache(int maximumSize) {
    if (maximumSize < 1) {
      throw new IllegalArgumentException("plan cache maximumSize must be positive: "
          + maximumSize);
    }
    this.maximumSize = maximumSize;
    this.shared = CacheBuilder.newBuilder().maximumSize(maximumSize).build();
    this.templates = new LiteralTemplates(maximumSize);
  }

  /**
   * The cached plan for {@code key}, planned by {@code planner} if absent, as the connection of
   * {@code context} runs it.
   */
  CachedPlan get(CalcitePrepare.Context context, Key key, Supplier<CachedPlan> planner) {
    final Root root = root(context);
    final Cache<Planned, CachedPlan> plansOfScope = root.own() != null ? root.own() : shared;
    // The scope is read before planning: a plan made while a schema takes newer tables is
    // kept under the older ones, where no later statement looks.
    final Planned planned = new Planned(key, root.scope());
    final CachedPlan cached = plansOfScope.getIfPresent(planned);
    if (cached != null) {
      hits.incrementAndGet();
      return cached.rootedAt(context.getRootSchema());
    }
    try {
      return plansOfScope.get(planned, () -> {
        plans.incrementAndGet();
        return planner.get();
      }).rootedAt(context.getRootSchema());
    } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
      throw unwrapped(e, "planning failed: " + key.sql());
    }
  }

  /** Calcite's own exception, so that the statement fails as it does uncached. */
  private static RuntimeException unwrapped(Throwable e, String message) {
    if (e.getCause() instanceof RuntimeException r) {
      return r;
    }
    if (e.getCause() instanceof Error r) {
      throw r;
    }
    return new IllegalStateException(message, e.getCause());
  }

  /** The parameterization of {@code sql} by how a statement of its shape was parameterized
   * on a connection with the same plan settings and routing columns, or null. */
  LiteralTemplates.@Nullable Match templated(CalcitePrepare.Context context, String sql) {
    final Root root = root(context);
    return templates.match(root.settings(), root.routing(), sql);
  }

  /** Keeps how the parser's parameterization treated {@code sql}, for its shape. */
  void template(CalcitePrepare.Context context, String sql,
      LiteralParameterizer.ParameterizedSql normalized) {
    final Root root = root(context);
    templates.record(root.settings(), root.routing(), sql, normalized);
  }

  /** How many prepares a statement shape's template parameterized without parsing. */
  public long templateHits() {
    return templates.hits();
  }

  /** The columns whose literals the plans of the connection of {@code context} keep. */
  RoutingColumns routingColumns(CalcitePrepare.Context context) {
    return root(context).routing();
  }

  /** What the connection's root schema is to this cache, found on its first prepare. */
  private Root root(CalcitePrepare.Context context) {
    final CalciteSchema mutableRoot = context.getMutableRootSchema();
    try {
      return roots.get(mutableRoot, () -> {
        final Properties properties =
            context.getDataContext().getQueryProvider() instanceof CalciteConnection connection
                ? connection.getProperties() : new Properties();
        return new Root(ShardSchemas.under(mutableRoot.plus()), PlanSettings.of(properties),
            portable(mutableRoot) ? null
                : CacheBuilder.newBuilder().maximumSize(maximumSize).build(),
            RoutingColumns.of(mutableRoot.plus()));
      });
    } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
      throw unwrapped(e, "cannot read the connection's schemas");
    }
  }

  /** Whether every schema of a connection's root is one whose plans another connection with
   * the same ShardSet tables and settings may run. */
  private static boolean portable(CalciteSchema root) {
    for (String name : root.plus().subSchemas().getNames(LikePattern.any())) {
      final SchemaPlus schema = root.plus().subSchemas().get(name);
      if (schema != null && !PORTABLE_SCHEMAS.contains(name)
          && ShardSchemas.shardSchema(schema) == null
          && !(CalciteSchema.from(schema).schema instanceof StatelessSchema)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The statements of the shared plans made on the tables a connection's ShardSet schemas
   * have now, at most {@code max}, each text and default schema once: what a process started
   * again may plan before its clients ask ({@link PlanWarmup}). Plans of other models the
   * process serves are not among them.
   */
  public List<PlanWarmup.Statement> statements(Connection connection, int max)
      throws SQLException {
    final List<SameTables> tables = tablesNow(ShardSchemas.under(
        connection.unwrap(CalciteConnection.class).getRootSchema()));
    return shared.asMap().keySet().stream()
        .filter(planned -> planned.scope().tables().equals(tables))
        .map(planned -> new PlanWarmup.Statement(planned.key().defaultSchemaPath(),
            planned.key().sql()))
        .distinct().limit(max).toList();
  }

  /** How many plans this cache has asked Calcite for. */
  public long plans() {
    return plans.get();
  }

  /** How many prepares a cached plan answered. */
  public long hits() {
    return hits.get();
  }

  /** How many plans a connection with root schema {@code root} can find now: the shared ones
   * made on its tables and settings, or its own. */
  public long size(CalciteSchema root) {
    final Root known = roots.getIfPresent(root);
    if (known == null) {
      return 0;
    }
    if (known.own() != null) {
      known.own().cleanUp();
      return known.own().size();
    }
    final Scope scope = known.scope();
    shared.cleanUp();
    return shared.asMap().keySet().stream().filter(p -> p.scope().equals(scope)).count();
  }

  /** Drops the plans a connection's root schema can find: its own, or the shared ones made on
   * its tables (with any settings). */
  public void invalidate(CalciteSchema root) {
    templates.clear();
    final Root known = roots.getIfPresent(root);
    roots.invalidate(root);
    if (known == null) {
      return;
    }
    if (known.own() != null) {
      known.own().invalidateAll();
      return;
    }
    final List<SameTables> tables = known.scope().tables();
    shared.asMap().keySet().removeIf(planned -> planned.scope().tables().equals(tables));
  }

  /** Drops the plans of a {@code jdbc:shardset:} connection (see {@link
   * #invalidate(CalciteSchema)}). */
  public void invalidate(Connection connection) throws SQLException {
    invalidate(CalciteSchema.from(connection.unwrap(CalciteConnection.class).getRootSchema()));
  }

  /** Drops every plan. */
  public void invalidateAll() {
    templates.clear();
    shared.invalidateAll();
    roots.asMap().values().forEach(root -> {
      if (root.own() != null) {
        root.own().invalidateAll();
      }
    });
    roots.invalidateAll();
  }
}
