package io.shardset.calcite.prepare;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.plan.PlannedReaches;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalciteSchema;

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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Cache of prepared plans ({@link CalciteSignature}s) keyed by normalized SQL text, so that a
 * statement prepared again, or differing only in literals, is not parsed, planned and compiled
 * again.
 *
 * <h2>Where it hooks in</h2>
 * Calcite 1.42 has no plan cache: {@code CalciteConnectionImpl.parseQuery} asks the driver's
 * {@code CalcitePrepare} to {@code prepareSql} every statement, for {@code prepareStatement},
 * {@code Statement.executeQuery} and Avatica's {@code JdbcMeta} alike. The hook is therefore
 * {@link PlanCachingPrepare}, a {@code CalcitePrepareImpl} overriding {@code prepareSql}, installed
 * by {@link io.shardset.calcite.jdbc.ShardSetDriver} ({@code jdbc:shardset:}, otherwise identical to
 * {@code jdbc:calcite:}). {@code jdbc:calcite:} keeps working uncached: Calcite registers its own
 * driver for that prefix and its prepare factory is fixed at construction. An Avatica server
 * gets the cache by giving {@code JdbcMeta} a {@code jdbc:shardset:} URL.
 *
 * <h2>Scope and keys</h2>
 * A plan refers to its connection's schema objects (the ShardSet schema is built per
 * connection, and plans stash per-shard SQL built from it), so plans are cached per root schema
 * of a connection, held weakly: a closed connection's plans go with it. Within a root schema the
 * key is the normalized text, the default schema path, the element type and the maximum row
 * count. Only queries are cached; DDL and DML run at prepare time, so they always go to
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
 * Each root schema keeps at most {@code maximumSize} plans, least recently used evicted first.
 * A plan is kept for the tables its ShardSet schemas had when it was made ({@link
 * ShardSchema#generation()}): when a schema takes the tables of a newer version of its model
 * file (a shard joined or left), the root's plans are dropped and its statements planned again
 * on the new tables. {@link #invalidate(CalciteSchema)} and {@link #invalidateAll()} drop plans
 * explicitly (after adding tables to a live connection's schema, say). Thread-local planner
 * hooks ({@code Hook.PROGRAM}, ...) are not part of the key.
 */
public final class PlanCache {
  /** Plans kept per connection unless a size is given. */
  public static final int DEFAULT_MAXIMUM_SIZE = 1000;

  private final int maximumSize;
  private final Cache<CalciteSchema, RootPlans> byRoot =
      CacheBuilder.newBuilder().weakKeys().build();
  private final Cache<CalciteSchema, RoutingColumns> routingColumns =
      CacheBuilder.newBuilder().weakKeys().build();
  private final AtomicLong plans = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();

  /** Identity of a cached plan within one root schema. */
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
  }

  /**
   * The plans of one root schema, made on the tables its ShardSet schemas had then.
   *
   * @param schemas the root's ShardSet schemas, found once: a connection's schemas stay
   */
  private record RootPlans(List<ShardSchema> schemas, Cache<Planned, CachedPlan> plans) {
    /** The generation of each schema's tables now. */
    List<Long> generations() {
      final List<Long> generations = new ArrayList<>(schemas.size());
      for (ShardSchema schema : schemas) {
        generations.add(schema.generation());
      }
      return generations;
    }
  }

  /**
   * A key and the generations of the tables it was planned on: a plan of older tables is never
   * found again.
   */
  private record Planned(Key key, List<Long> generations) {
  }

  /** Creates a cache keeping at most {@code maximumSize} plans per connection. */
  public PlanCache(int maximumSize) {
    if (maximumSize < 1) {
      throw new IllegalArgumentException("plan cache maximumSize must be positive: "
          + maximumSize);
    }
    this.maximumSize = maximumSize;
  }

  /** The cached plan for {@code key}, planned by {@code planner} if absent. */
  CachedPlan get(CalciteSchema root, Key key, Supplier<CachedPlan> planner) {
    try {
      final RootPlans ofRoot = byRoot.get(root, () -> new RootPlans(
          ShardSchemas.under(root.plus()),
          CacheBuilder.newBuilder().maximumSize(maximumSize).build()));
      final Cache<Planned, CachedPlan> plansOfRoot = ofRoot.plans();
      // Read before planning: a plan made while a schema takes newer tables is kept under the
      // older generation, where no later statement looks.
      final Planned planned = new Planned(key, ofRoot.generations());
      final CachedPlan cached = plansOfRoot.getIfPresent(planned);
      if (cached != null) {
        hits.incrementAndGet();
        return cached;
      }
      dropOlder(plansOfRoot, planned.generations());
      return plansOfRoot.get(planned, () -> {
        plans.incrementAndGet();
        return planner.get();
      });
    } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
      // Calcite's own exception, so that the statement fails as it does uncached.
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw new IllegalStateException("planning failed: " + key.sql(), e.getCause());
    }
  }

  /** Drops the plans made on other tables than those of {@code generations}. */
  private static void dropOlder(Cache<Planned, CachedPlan> plans, List<Long> generations) {
    plans.asMap().keySet().removeIf(planned -> !planned.generations().equals(generations));
  }

  /** The columns whose literals the plans of {@code root} keep, found by {@code finder} the
   * first time they are asked for. */
  RoutingColumns routingColumns(CalciteSchema root, Supplier<RoutingColumns> finder) {
    try {
      return routingColumns.get(root, finder::get);
    } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("cannot read the routing columns", e.getCause());
    }
  }

  /** How many plans this cache has asked Calcite for. */
  public long plans() {
    return plans.get();
  }

  /** How many prepares a cached plan answered. */
  public long hits() {
    return hits.get();
  }

  /** How many plans are cached for {@code root}. */
  public long size(CalciteSchema root) {
    final RootPlans ofRoot = byRoot.getIfPresent(root);
    if (ofRoot == null) {
      return 0;
    }
    ofRoot.plans().cleanUp();
    return ofRoot.plans().size();
  }

  /** Drops the plans of one connection's root schema. */
  public void invalidate(CalciteSchema root) {
    byRoot.invalidate(root);
    routingColumns.invalidate(root);
  }

  /** Drops the plans of a {@code jdbc:shardset:} connection. */
  public void invalidate(Connection connection) throws SQLException {
    invalidate(CalciteSchema.from(connection.unwrap(CalciteConnection.class).getRootSchema()));
  }

  /** Drops every plan. */
  public void invalidateAll() {
    byRoot.invalidateAll();
    routingColumns.invalidateAll();
  }
}
