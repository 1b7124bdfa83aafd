package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.prepare.PlanCache;
import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Generated statements return the unsharded database's answer three ways: as PreparedStatements
 * with {@code ?} (each text prepared once and executed with every set of values it is generated
 * with), with literals through the plan cache of one {@code jdbc:shardset:} connection, in the
 * same order, so that statements of one shape share a plan, and with literals on
 * {@code jdbc:calcite:}, which plans each statement anew and so runs the first few of each
 * shape only.
 *
 * <p>The seed is printed; {@code -Dshardset.differential.seed=N} replays a run, and
 * {@code -Dshardset.differential.statements=N} changes how many statements run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParameterDifferentialTest {
  private static final long DEFAULT_SEED = 20_261_130L;
  private static final int FAILURES_SHOWN = 12;
  /** How many statements share a shape, each with its own values. */
  private static final int INSTANCES = 16;
  /** How many statements of each shape also run with literals on {@code jdbc:calcite:},
   * which plans each one anew. */
  private static final int LITERAL_INSTANCES = 2;
  /** Numbers from here on have too many digits for a fraction in Calcite's decimals. */
  private static final long HUGE = 100_000_000_000_000_000L;

  private ShardFixture fixture;
  private Connection calcite;
  private Connection shardset;

  /** The databases the shards and the reference live on. */
  Backend backend() {
    return Backend.H2;
  }

  /** How many statements a run generates, unless the system property says. */
  int defaultStatements() {
    return 1200;
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), 4, DifferentialData.DDL);
    final String model = fixture.model(DifferentialData.TABLES);
    calcite = ShardFixture.connect(model);
    shardset = Connector.SHARDSET.open(model);
    DifferentialData.load(fixture, calcite);
  }

  @AfterAll void tearDown() throws SQLException {
    if (shardset != null) {
      shardset.close();
    }
    if (calcite != null) {
      calcite.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyWayGivesTheUnshardedAnswer() throws SQLException {
    final long seed = Long.getLong("shardset.differential.seed", DEFAULT_SEED);
    final int count = Integer.getInteger("shardset.differential.statements",
        defaultStatements());
    System.out.println("ParameterDifferentialTest: backend " + backend() + ", seed " + seed
        + ", " + count + " statements (-Dshardset.differential.seed="
        + seed + " replays)");
    final SplittableRandom shapes = new SplittableRandom(seed);
    final StatementGenerator generator = new StatementGenerator(new SplittableRandom(~seed));
    final Map<String, PreparedStatement> prepared = new HashMap<>();
    final List<String> failures = new ArrayList<>();
    final long[] nanos = new long[3];
    final PlanCache planCache =
        ((ShardSetDriver) DriverManager.getDriver(ShardSetDriver.CONNECT_STRING_PREFIX))
            .planCache();
    final long hits = planCache.hits();
    final long plans = planCache.plans();
    final long start = System.nanoTime();
    int compared = 0;
    int literals = 0;
    try {
      long shape = 0;
      for (int i = 0; i < count; i++) {
        if (i % INSTANCES == 0) {
          shape = shapes.nextLong();
        }
        final GeneratedSql sql = generator.next(shape);
        final List<String> expected;
        try {
          expected = ShardFixture.sorted(fixture.oracleRows(sql.literal()));
        } catch (SQLException e) {
          throw new AssertionError("the reference rejects " + sql.literal(), e);
        }
        compared++;
        if (i % INSTANCES < LITERAL_INSTANCES) {
          check(failures, nanos, 0, "jdbc:calcite:", sql.literal(), expected,
              () -> ShardFixture.sorted(ShardFixture.rows(calcite, sql.literal())));
          literals++;
        }
        check(failures, nanos, 1, "PreparedStatement", sql.parameterized() + " " + sql.values(),
            expected, () -> {
              final PreparedStatement p = prepared.computeIfAbsent(sql.parameterized(),
                  text -> prepare(calcite, text));
              bind(p, sql);
              try (ResultSet rs = p.executeQuery()) {
                return ShardFixture.rows(rs);
              }
            });
        check(failures, nanos, 2, "jdbc:shardset:", sql.literal(), expected,
            () -> ShardFixture.sorted(ShardFixture.rows(shardset, sql.literal())));
      }
    } finally {
      for (PreparedStatement p : prepared.values()) {
        p.close();
      }
    }
    failures.forEach(f -> System.out.println("DIFFERS " + f));
    final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println("ParameterDifferentialTest: plan cache " + (planCache.hits() - hits)
        + " hits, " + (planCache.plans() - plans) + " plans");
    System.out.println("ParameterDifferentialTest: " + compared + " statements, "
        + prepared.size() + " prepared texts, " + failures.size() + " failures, "
        + millis + " ms (" + literals + " with literals " + TimeUnit.NANOSECONDS.toMillis(nanos[0])
        + " ms, prepared " + TimeUnit.NANOSECONDS.toMillis(nanos[1]) + " ms, plan cache "
        + TimeUnit.NANOSECONDS.toMillis(nanos[2]) + " ms)");
    assertEquals(List.of(), failures.subList(0, Math.min(FAILURES_SHOWN, failures.size())),
        failures.size() + " of " + (compared * 2 + literals) + " executions differ (seed "
            + seed + ")");
  }

  /** Rows of one way of running a statement. */
  private interface Run {
    List<String> rows() throws SQLException;
  }

  private static void check(List<String> failures, long[] nanos, int way, String name,
      String sql, List<String> expected, Run run) {
    final long start = System.nanoTime();
    try {
      final List<String> actual = ShardFixture.sorted(run.rows());
      if (!actual.equals(expected)) {
        failures.add(name + ": " + sql + " returned " + abbreviate(actual) + ", expected "
            + abbreviate(expected));
      }
    } catch (SQLException | RuntimeException e) {
      failures.add(name + ": " + sql + " failed: " + e.getMessage());
    } finally {
      nanos[way] += System.nanoTime() - start;
    }
  }

  private static String abbreviate(List<String> rows) {
    return rows.size() <= 8 ? rows.toString()
        : rows.subList(0, 8) + "... (" + rows.size() + " rows)";
  }

  private static PreparedStatement prepare(Connection connection, String sql) {
    try {
      return connection.prepareStatement(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot prepare " + sql + ": " + e.getMessage(), e);
    }
  }

  private static void bind(PreparedStatement p, GeneratedSql sql) throws SQLException {
    for (int i = 0; i < sql.values().size(); i++) {
      final Object value = sql.values().get(i);
      final int type = sql.types().get(i);
      if (value == null) {
        p.setNull(i + 1, type);
      } else if (type == Types.BIGINT) {
        p.setLong(i + 1, (Long) value);
      } else if (type == Types.INTEGER) {
        p.setInt(i + 1, (Integer) value);
      } else {
        p.setString(i + 1, (String) value);
      }
    }
  }



  /** A generated statement: with literals, and with {@code ?} for some of them, whose values
   * and JDBC types are listed in text order. */
  record GeneratedSql(String literal, String parameterized, List<Object> values,
      List<Integer> types) {
  }

  /** Builds the two texts of a statement side by side. */
  private static final class SqlPair {
    private final StringBuilder literal = new StringBuilder();
    private final StringBuilder parameterized = new StringBuilder();
    private final List<Object> values = new ArrayList<>();
    private final List<Integer> types = new ArrayList<>();

    SqlPair text(String text) {
      literal.append(text);
      parameterized.append(text);
      return this;
    }

    /** A value that is a literal in one text and a parameter in the other. */
    SqlPair value(String literalText, Object value, int type) {
      literal.append(literalText);
      parameterized.append('?');
      values.add(value);
      types.add(type);
      return this;
    }

    GeneratedSql build() {
      return new GeneratedSql(literal.toString(), parameterized.toString(), values, types);
    }
  }

  /**
   * Random statements over {@link DifferentialData}'s tables. A statement's shape (tables,
   * conditions, which values are parameters) comes from its shape seed, its values from the
   * generator's own sequence, so that statements of one shape share a prepared text and a
   * cached plan.
   */
  private static final class StatementGenerator {
    private final SplittableRandom values;
    private SplittableRandom random = new SplittableRandom(0);

    StatementGenerator(SplittableRandom values) {
      this.values = values;
    }

    GeneratedSql next(long shape) {
      random = new SplittableRandom(shape);
      final SqlPair sql = new SqlPair();
      if (random.nextInt(10) < 8) {
        final DifferentialData.Table table = pick(DifferentialData.TABLE_LIST);
        sql.text("SELECT " + table.selected() + " FROM " + table.name() + " WHERE ");
        condition(sql, table, 0);
      } else {
        final String op = pick(List.of("UNION", "UNION ALL", "INTERSECT", "EXCEPT"));
        final DifferentialData.Table left = pick(DifferentialData.TABLE_LIST);
        final DifferentialData.Table right = pick(DifferentialData.TABLE_LIST);
        sql.text("SELECT C FROM " + left.name() + " WHERE ");
        condition(sql, left, 1);
        sql.text(" " + op + " SELECT C FROM " + right.name() + " WHERE ");
        condition(sql, right, 1);
      }
      return sql.build();
    }

    private void condition(SqlPair sql, DifferentialData.Table table, int depth) {
      final int choice = random.nextInt(depth >= 2 ? 4 : 12);
      if (choice < 4) {
        atom(sql, table);
      } else if (choice >= 10) {
        keyDisjunction(sql, table, depth);
      } else if (choice < 8) {
        final String op = choice < 6 ? " AND " : " OR ";
        final int terms = 2 + random.nextInt(2);
        sql.text("(");
        for (int i = 0; i < terms; i++) {
          if (i > 0) {
            sql.text(op);
          }
          condition(sql, table, depth + 1);
        }
        sql.text(")");
      } else {
        sql.text("NOT (");
        condition(sql, table, depth + 1);
        sql.text(")");
      }
    }

    /** Equalities of the key, some with another condition beside them: {@code K = ? OR
     * (K = ? AND C = ?)}, which reads as a list of keys if the other condition is lost. */
    private void keyDisjunction(SqlPair sql, DifferentialData.Table table, int depth) {
      final int terms = 2 + random.nextInt(3);
      sql.text("(");
      for (int i = 0; i < terms; i++) {
        if (i > 0) {
          sql.text(" OR ");
        }
        final boolean beside = random.nextInt(5) < 2;
        sql.text(beside ? "(" : "");
        for (DifferentialData.Column key : table.keys()) {
          sql.text(key == table.keys().get(0) ? "" : " AND ").text(key.name() + " = ");
          value(sql, key, false);
        }
        if (beside) {
          sql.text(" AND ");
          condition(sql, table, depth + 1);
          sql.text(")");
        }
      }
      sql.text(")");
    }

    /** A comparison of one column, a key column more often than not. */
    private void atom(SqlPair sql, DifferentialData.Table table) {
      final DifferentialData.Column column = random.nextInt(3) < 2
          ? pick(table.keys()) : pick(table.columns());
      final int kind = random.nextInt(14) % 12;
      if (kind < 4) {
        // Equality most often: key = ? beside other conditions is where narrowing is tempting.
        final String op = column.isText() || random.nextBoolean() ? "="
            : pick(List.of("=", "<>", "<", "<=", ">", ">="));
        sql.text(column.name() + " " + op + " ");
        value(sql, column, true);
      } else if (kind < 8) {
        sql.text(column.name() + (kind == 7 ? " NOT IN (" : " IN ("));
        final int size = random.nextInt(40) == 0 ? 20 + random.nextInt(5)
            : 1 + random.nextInt(4);
        // Calcite types a list of integers and decimals as DECIMAL with at most 19 digits: a
        // parameter (BIGINT) or a 19-digit key beside a fraction makes it DECIMAL(19, 0), and
        // the fraction is cut off. Fractions come only in lists of literals of a few digits.
        final boolean decimals = !column.isText() && random.nextInt(5) == 0;
        for (int i = 0; i < size; i++) {
          if (i > 0) {
            sql.text(", ");
          }
          if (decimals) {
            literal(sql, column, true);
          } else {
            value(sql, column, false);
          }
        }
        sql.text(")");
      } else if (kind < 10) {
        sql.text(column.name() + " BETWEEN ");
        value(sql, column, true);
        sql.text(" AND ");
        value(sql, column, true);
      } else {
        sql.text(column.name() + (kind == 10 ? " IS NULL" : " IS NOT NULL"));
      }
    }

    /** A value for a column: mostly one of its pool, as a literal or parameter; sometimes
     * NULL, or (where {@code fractions}) a decimal literal. */
    private void value(SqlPair sql, DifferentialData.Column column, boolean fractions) {
      final int kind = random.nextInt(20);
      if (kind == 0) {
        sql.value("CAST(NULL AS " + column.sqlType() + ")", null, column.jdbcType());
      } else if (kind < 3) {
        literal(sql, column, fractions);
      } else {
        final Object value = pick(values, column.pool());
        sql.value(column.isText() ? "'" + value + "'" : value.toString(), value,
            column.jdbcType());
      }
    }

    /** A literal in both texts, fixed by the shape: one of the column's pool, or for a number
     * (where {@code fractions}, and not a 19-digit one) a decimal, with a zero fraction (the
     * same number) or not (no integer). */
    private void literal(SqlPair sql, DifferentialData.Column column, boolean fractions) {
      Object value = pick(column.pool());
      if (column.isText()) {
        sql.text("'" + value + "'");
        return;
      }
      while (fractions && ((Number) value).longValue() >= HUGE) {
        value = pick(column.pool());
      }
      sql.text(value + (!fractions || random.nextBoolean() ? ""
          : random.nextBoolean() ? ".0" : ".5"));
    }

    private <T> T pick(List<T> list) {
      return pick(random, list);
    }

    private static <T> T pick(SplittableRandom random, List<T> list) {
      return list.get(random.nextInt(list.size()));
    }
  }
}
