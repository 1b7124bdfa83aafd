package io.shardset.testing;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fluent assertion on one query through ShardSet over a {@link ShardFixture}'s counted
 * shards: which shards it reaches, what SQL they receive, what rows it returns compared with
 * the fixture's unsharded oracle, or the error it fails with.
 *
 * <pre>{@code
 * fixture.sql(connection, "SELECT * FROM ORDERS WHERE CUSTOMER_ID = ?")
 *     .withParameters(42L)
 *     .reaches("s2")
 *     .sends("s2", "SELECT * FROM \"ORDERS\" WHERE \"CUSTOMER_ID\" = ?")
 *     .returnsUnsharded();
 * }</pre>
 *
 * <p>What a query is never changes: the {@code with...} and {@link #through} methods return a
 * new query. The assertion methods return this one, and all assertions on one query are about
 * the same, single execution, which it keeps: the query runs (counters reset first) at the
 * first assertion that needs it. Every assertion but {@link #failsWith} and {@link #failsContaining} requires
 * that execution to succeed; after one of those two, the others check what the failing
 * execution did. {@link #explainIs} and {@link #explainContains} run EXPLAIN separately.
 */
public final class QueryAssert {
  /** Binds a prepared statement's parameters. */
  @FunctionalInterface
  public interface Binding {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /** A NULL parameter of a given {@link java.sql.Types} type, for {@link #withParameters}. */
  public record Null(int sqlType) {
  }

  private final @Nullable CountingShards shards;
  private final Connection oracle;
  private final Connection connection;
  private final String sql;
  private final @Nullable Binding binding;
  private final String bound;
  private final Run run = new Run();

  private QueryAssert(@Nullable CountingShards shards, Connection oracle, Connection connection,
      String sql, @Nullable Binding binding, String bound) {
    this.shards = shards;
    this.oracle = Objects.requireNonNull(oracle, "oracle");
    this.connection = Objects.requireNonNull(connection, "connection");
    this.sql = Objects.requireNonNull(sql, "sql");
    this.binding = binding;
    this.bound = bound;
  }

  /** A query whose shards are counted, compared with the fixture's oracle. */
  static QueryAssert of(ShardFixture fixture, Connection connection, String sql) {
    return new QueryAssert(fixture.shards(), fixture.oracle(), connection, sql, null, "");
  }

  /**
   * A query over shards that are not counted (real JDBC URLs in a model file, say), compared
   * with an unsharded database: only the assertions on rows and errors apply.
   */
  public static QueryAssert uncounted(Connection connection, String sql, Connection oracle) {
    return new QueryAssert(null, oracle, connection, sql, null, "");
  }

  /** The same query, run as a prepared statement with these parameters ({@code setObject},
   * or {@code setNull} for a {@link Null}). */
  public QueryAssert withParameters(@Nullable Object... values) {
    final List<@Nullable Object> copy = Arrays.asList(values.clone());
    return withBinding(p -> {
      for (int i = 0; i < copy.size(); i++) {
        final Object value = copy.get(i);
        if (value instanceof Null n) {
          p.setNull(i + 1, n.sqlType());
        } else {
          p.setObject(i + 1, value);
        }
      }
    }, copy.toString());
  }

  /**
   * The same query, run as a prepared statement bound by {@code binding}: for tests about
   * a particular setter ({@code setInt}, {@code setDate}...).
   *
   * @param description how the parameters are bound, for failure messages
   */
  public QueryAssert withBinding(Binding binding, String description) {
    return new QueryAssert(shards, oracle, connection, sql, binding, " with " + description);
  }

  /** The same query sent through another connection (another driver, say). */
  public QueryAssert through(Connection other) {
    return new QueryAssert(shards, oracle, other, sql, binding, bound);
  }

  /**
   * Runs the query, if this chain has not yet, and returns what it gave and did; throws if
   * the query failed, unless the chain has asserted ({@link #failsWith}) that it fails.
   */
  public QueryOutcome outcome() {
    if (run.outcome == null) {
      run.outcome = execute();
    }
    if (run.outcome.error() != null && !run.failureExpected) {
      throw new AssertionError(this + " failed", run.outcome.error());
    }
    return run.outcome;
  }

  /** Asserts that exactly these shards executed statements (none if none are given). */
  public QueryAssert reaches(String... shards) {
    countedShards();
    assertEquals(new TreeSet<>(Arrays.asList(shards)), outcome().reached(),
        "shards reached by " + this);
    return this;
  }

  /** Asserts that every shard of the fixture executed statements. */
  public QueryAssert reachesAll() {
    return reaches(countedShards().names().toArray(new String[0]));
  }

  /** Asserts that exactly these shards executed statements. */
  public QueryAssert reaches(Set<String> shards) {
    return reaches(shards.toArray(new String[0]));
  }

  /** Asserts that a shard executed exactly these statements, in this order. */
  public QueryAssert sends(String shard, String... statements) {
    countedShards();
    assertEquals(Arrays.asList(statements),
        outcome().executions(shard).stream().map(CountingShards.Execution::sql).toList(),
        "SQL " + shard + " received for " + this);
    return this;
  }

  /** Asserts that statements were sent, and every one sent to any shard contains
   * {@code fragment}. */
  public QueryAssert sendsContaining(String fragment) {
    countedShards();
    final QueryOutcome outcome = outcome();
    assertTrue(outcome.statementsExecuted() > 0, "no shard received SQL for " + this);
    outcome.executions().forEach((shard, list) -> list.forEach(e ->
        assertTrue(e.sql().contains(fragment),
            shard + " received " + e.sql() + " without " + fragment + " for " + this)));
    return this;
  }

  /** Asserts that each shard that received SQL received a statement containing every
   * fragment, whatever else it received. */
  public QueryAssert sendsToEachReachedShard(String... fragments) {
    countedShards();
    final QueryOutcome outcome = outcome();
    assertTrue(outcome.statementsExecuted() > 0, "no shard received SQL for " + this);
    outcome.executions().forEach((shard, list) -> assertTrue(
        list.isEmpty() || list.stream().anyMatch(
            e -> Arrays.stream(fragments).allMatch(f -> e.sql().contains(f))),
        shard + " received no statement containing " + Arrays.toString(fragments) + " for "
            + this + ": " + list));
    return this;
  }

  /** Asserts that a shard received a statement containing every fragment. */
  public QueryAssert sendsTo(String shard, String... fragments) {
    countedShards();
    final List<CountingShards.Execution> list = outcome().executions(shard);
    assertTrue(list.stream().anyMatch(
            e -> Arrays.stream(fragments).allMatch(f -> e.sql().contains(f))),
        shard + " received no statement containing " + Arrays.toString(fragments) + " for "
            + this + ": " + list);
    return this;
  }

  /** Asserts that no statement sent to a shard contains {@code fragment}. */
  public QueryAssert sendsNothingContaining(String shard, String fragment) {
    countedShards();
    outcome().executions(shard).forEach(e -> assertFalse(e.sql().contains(fragment),
        shard + " received " + e.sql() + " for " + this));
    return this;
  }

  /** Asserts that no statement sent to any shard contains {@code fragment}. */
  public QueryAssert sendsNothingContaining(String fragment) {
    countedShards();
    outcome().executions().forEach((shard, list) -> list.forEach(e ->
        assertFalse(e.sql().contains(fragment),
            shard + " received " + e.sql() + " for " + this)));
    return this;
  }

  /** Asserts the statements executed over all shards. */
  public QueryAssert executes(int statements) {
    countedShards();
    assertEquals(statements, outcome().statementsExecuted(), "statements executed by " + this);
    return this;
  }

  /** Asserts that each shard of the fixture executed exactly {@code statements} statements. */
  public QueryAssert executesOnEachShard(int statements) {
    for (String shard : countedShards().names()) {
      assertEquals(statements, outcome().executions(shard).size(),
          "statements " + shard + " executed for " + this);
    }
    return this;
  }

  /** Asserts that the shards' result sets gave no more rows than the query returned: nothing
   * was filtered, joined or aggregated above the shards. */
  public QueryAssert readsOnlyReturnedRows() {
    countedShards();
    final QueryOutcome outcome = rowsOutcome();
    assertEquals(outcome.rows().size(), outcome.totalRowsRead(),
        "rows read at the shards by " + this);
    return this;
  }

  /** Asserts the rows read from all shards' result sets together. */
  public QueryAssert readsRows(long rows) {
    countedShards();
    assertEquals(rows, outcome().totalRowsRead(), "rows read at the shards by " + this);
    return this;
  }

  /** Asserts the rows read from each shard's result sets. */
  public QueryAssert readsFromEachShard(long rows) {
    countedShards();
    outcome().rowsRead().forEach((shard, read) ->
        assertEquals(rows, read, "rows read from " + shard + " by " + this));
    return this;
  }

  /** Asserts that no shard's result sets gave more than {@code rows} rows. */
  public QueryAssert readsAtMostFromEachShard(long rows) {
    countedShards();
    outcome().rowsRead().forEach((shard, read) ->
        assertTrue(read <= rows, read + " rows read from " + shard + " by " + this));
    return this;
  }

  /** Asserts the rows, in this order. */
  public QueryAssert returns(String... rows) {
    assertEquals(Arrays.asList(rows), rowsOutcome().rows(), "rows of " + this);
    return this;
  }

  /** Asserts the rows, in any order. */
  public QueryAssert returnsUnordered(String... rows) {
    assertEquals(ShardFixture.sorted(Arrays.asList(rows)),
        ShardFixture.sorted(rowsOutcome().rows()), "rows of " + this);
    return this;
  }

  /** Asserts the number of rows. */
  public QueryAssert returnsCount(int rows) {
    assertEquals(rows, rowsOutcome().rows().size(), "rows of " + this);
    return this;
  }

  /** Asserts that the query returns at least one row: a comparison with the oracle is only
   * worth something where there are rows to compare. */
  public QueryAssert returnsSomeRows() {
    assertFalse(rowsOutcome().rows().isEmpty(), "no rows from " + this);
    return this;
  }

  /** Asserts the rows the oracle returns for the same statement and parameters, in any order. */
  public QueryAssert returnsUnsharded() {
    return compare(oracleRows(), false);
  }

  /** Asserts the rows the oracle returns for the same statement and parameters, in order. */
  public QueryAssert returnsUnshardedInOrder() {
    return compare(oracleRows(), true);
  }

  /**
   * Asserts, in any order, the rows the oracle returns for {@code oracleSql}, run without
   * parameters: the same query with its parameters written as literals, or written as the
   * oracle's product needs.
   */
  public QueryAssert returnsUnsharded(String oracleSql) {
    return compare(oracle(oracleSql), false);
  }

  /** As {@link #returnsUnsharded(String)}, in order. */
  public QueryAssert returnsUnshardedInOrder(String oracleSql) {
    return compare(oracle(oracleSql), true);
  }

  /** Asserts that the query fails with an {@link SQLException} whose innermost cause has
   * exactly this message. */
  public QueryAssert failsWith(String message) {
    assertEquals(message, rootMessage(failure()), "error of " + this);
    return this;
  }

  /** Asserts that the query fails, the innermost cause's message containing {@code fragment}
   * (a remote client receives the server's message inside Avatica's text). */
  public QueryAssert failsContaining(String fragment) {
    final String message = rootMessage(failure());
    assertTrue(message.contains(fragment), "error of " + this + ": " + message);
    return this;
  }

  /** Asserts the whole EXPLAIN PLAN text. */
  public QueryAssert explainIs(String plan) {
    assertEquals(plan, explain(), "plan of " + this);
    return this;
  }

  /** Asserts that the EXPLAIN PLAN text contains every fragment. */
  public QueryAssert explainContains(String... fragments) {
    final String plan = explain();
    for (String fragment : fragments) {
      assertTrue(plan.contains(fragment), "plan of " + this + " lacks " + fragment + ":\n"
          + plan);
    }
    return this;
  }

  @Override public String toString() {
    return sql + bound;
  }

  private QueryAssert compare(List<String> expected, boolean ordered) {
    final List<String> actual = rowsOutcome().rows();
    if (ordered) {
      assertEquals(expected, actual, "rows of " + this);
    } else {
      assertEquals(ShardFixture.sorted(expected), ShardFixture.sorted(actual), "rows of " + this);
    }
    return this;
  }

  private List<String> oracleRows() {
    if (binding == null) {
      return oracle(sql);
    }
    try (PreparedStatement p = oracle.prepareStatement(sql)) {
      binding.bind(p);
      try (ResultSet rs = p.executeQuery()) {
        return ShardFixture.rows(rs);
      }
    } catch (SQLException e) {
      throw new AssertionError("the oracle refused " + this, e);
    }
  }

  private List<String> oracle(String oracleSql) {
    try {
      return ShardFixture.rows(oracle, oracleSql);
    } catch (SQLException e) {
      throw new AssertionError("the oracle refused " + oracleSql, e);
    }
  }

  /** The outcome of a query that must have succeeded. */
  private QueryOutcome rowsOutcome() {
    final QueryOutcome outcome = outcome();
    if (outcome.error() != null) {
      throw new AssertionError(this + " failed", outcome.error());
    }
    return outcome;
  }

  private SQLException failure() {
    run.failureExpected = true;
    final QueryOutcome outcome = outcome();
    if (outcome.error() == null) {
      throw new AssertionError(this + " returned " + outcome.rows() + " instead of failing");
    }
    return outcome.error();
  }

  /** The counted shards, for the assertions about what they were sent. */
  private CountingShards countedShards() {
    if (shards == null) {
      throw new IllegalStateException("the shards of " + this + " are not counted");
    }
    return shards;
  }

  private QueryOutcome execute() {
    if (shards != null) {
      shards.resetCounters();
    }
    final List<String> rows = new ArrayList<>();
    SQLException error = null;
    try {
      if (binding == null) {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
          rows.addAll(ShardFixture.rows(rs));
        }
      } else {
        try (PreparedStatement p = connection.prepareStatement(sql)) {
          binding.bind(p);
          try (ResultSet rs = p.executeQuery()) {
            rows.addAll(ShardFixture.rows(rs));
          }
        }
      }
    } catch (SQLException e) {
      error = e;
    }
    final Map<String, List<CountingShards.Execution>> executions = new LinkedHashMap<>();
    final Map<String, Long> rowsRead = new LinkedHashMap<>();
    for (String shard : shards == null ? List.<String>of() : shards.names()) {
      executions.put(shard, shards.executions(shard));
      rowsRead.put(shard, shards.rowsRead(shard));
    }
    return new QueryOutcome(rows, error, executions, rowsRead);
  }

  private String explain() {
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      throw new AssertionError("EXPLAIN failed for " + this, e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return String.valueOf(t.getMessage());
  }

  /** The one execution a chain of assertions shares, and whether the chain expects it to
   * fail. */
  private static final class Run {
    @Nullable QueryOutcome outcome;
    boolean failureExpected;
  }
}
