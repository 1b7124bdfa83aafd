package io.shardset.calcite.jdbc;

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
 * by {@link ShardSetDriver} ({@code jdbc:shardset:}, otherwise identical to
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
 * A connection reads its model once, when it opens, so a changed model reaches only new
 * connections, whose root schemas start with empty caches; {@link #invalidate(CalciteSchema)}
 * and {@link #invalidateAll()} drop plans explicitly (after adding tables to a live connection's
 * schema, say). Thread-local planner hooks ({@code Hook.PROGRAM}, ...) are not part of the key.
 */
public final class PlanCache {
  /** Plans kept per connection unless a size is given. */
  public static final int DEFAULT_MAXIMUM_SIZE = 1000;

  private final int maximumSize;
  private final Cache<CalciteSchema, Cache<Key, CachedPlan>> byRoot =
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
    final Cache<Key, CachedPlan> plansOfRoot;
    try {
      plansOfRoot = byRoot.get(root,
          () -> CacheBuilder.newBuilder().maximumSize(maximumSize).build());
      final CachedPlan cached = plansOfRoot.getIfPresent(key);
      if (cached != null) {
        hits.incrementAndGet();
        return cached;
      }
      return plansOfRoot.get(key, () -> {
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
    final Cache<Key, CachedPlan> plansOfRoot = byRoot.getIfPresent(root);
    if (plansOfRoot == null) {
      return 0;
    }
    plansOfRoot.cleanUp();
    return plansOfRoot.size();
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
