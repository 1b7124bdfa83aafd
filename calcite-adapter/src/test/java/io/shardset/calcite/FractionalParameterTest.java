package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A fractional or out-of-range value bound to a parameter compared with an integer shard key
 * (hashed {@code HT.K BIGINT}, ranged {@code RG.K INTEGER}) selects what the same statement
 * selects on the unsharded database, bound the same way: {@code K = 42.5} matches nothing and
 * reaches no shard, {@code K < -99.5} is {@code K <= -100}. Every comparison, {@code BETWEEN}
 * and {@code IN} is run over generated values (fractions next to the keys and the range
 * bounds, whole numbers written with a fraction, values beyond the column's type) with
 * {@code setBigDecimal}, {@code setDouble} and {@code setObject}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FractionalParameterTest {
  private static final List<String> SHAPES = List.of(
      "K = ?", "K <> ?", "K < ?", "K <= ?", "K > ?", "K >= ?", "K BETWEEN ? AND ?",
      "K IN (?, ?)", "K = ? OR K = ?", "K > ? AND K < ?");
  private static final int VALUES_PER_SHAPE = 24;

  /** How a test binds a number. */
  private enum Binding {
    BIG_DECIMAL, DOUBLE, OBJECT;

    void bind(PreparedStatement p, int index, BigDecimal value) throws SQLException {
      switch (this) {
      case BIG_DECIMAL -> p.setBigDecimal(index, value);
      case DOUBLE -> p.setDouble(index, value.doubleValue());
      default -> p.setObject(index, value);
      }
    }
  }

  private ShardFixture fixture;
  private Connection shardset;

  /** The databases the shards and the reference live on. */
  Backend backend() {
    return Backend.H2;
  }

  @BeforeAll void setUp() throws SQLException {
    fixture = ShardFixture.create(backend(), 4, DifferentialData.DDL);
    final String model = fixture.model(DifferentialData.TABLES);
    try (Connection calcite = ShardFixture.connect(model)) {
      DifferentialData.load(fixture, calcite);
    }
    shardset = Connector.SHARDSET.open(model);
  }

  @AfterAll void tearDown() throws SQLException {
    if (shardset != null) {
      shardset.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test void aFractionalKeyMatchesNothingAndReachesNoShard() throws SQLException {
    for (String table : List.of("HT", "RG")) {
      try (PreparedStatement p = shardset.prepareStatement(
          "SELECT K FROM " + table + " WHERE K = ?")) {
        for (Binding binding : Binding.values()) {
          binding.bind(p, 1, new BigDecimal("42.5"));
          assertEquals(Set.of(), fixture.reached(p), table + " " + binding);
          try (ResultSet rs = p.executeQuery()) {
            assertEquals(List.of(), ShardFixture.rows(rs), table + " " + binding);
          }
        }
      }
    }
  }

  @Test void aFractionalRangeBoundRoutesAsItsWholeNeighbour() throws SQLException {
    try (PreparedStatement p = shardset.prepareStatement(
        "SELECT COUNT(*) FROM RG WHERE K < ?")) {
      p.setBigDecimal(1, new BigDecimal("99.5"));
      // K < 99.5 is K <= 99: the first range only.
      assertEquals(Set.of("s0"), fixture.reached(p));
      p.setBigDecimal(1, new BigDecimal("100.5"));
      assertEquals(Set.of("s0", "s1"), fixture.reached(p));
    }
  }

  @Test void everyBindingGivesTheUnshardedAnswer() throws SQLException {
    compare("SELECT K, C, D FROM %s WHERE %s");
  }

  /** An UPDATE's WHERE compares as a query's does: the same rows are counted. */
  @Test void everyUpdateCountsTheUnshardedRows() throws SQLException {
    compare("UPDATE %s SET C = C WHERE %s");
  }

  private void compare(String template) throws SQLException {
    final SplittableRandom random = new SplittableRandom(20_261_205L);
    final List<String> failures = new ArrayList<>();
    int compared = 0;
    for (String table : List.of("HT", "RG")) {
      for (String shape : SHAPES) {
        final String sql = String.format(Locale.ROOT, template, table, shape);
        final int parameters = (int) shape.chars().filter(c -> c == '?').count();
        try (PreparedStatement sharded = shardset.prepareStatement(sql);
             PreparedStatement reference = fixture.oracle().prepareStatement(sql)) {
          for (int i = 0; i < VALUES_PER_SHAPE; i++) {
            final Binding binding = Binding.values()[i % Binding.values().length];
            final List<BigDecimal> values = new ArrayList<>();
            for (int v = 0; v < parameters; v++) {
              values.add(value(table, random));
            }
            for (int v = 0; v < parameters; v++) {
              binding.bind(sharded, v + 1, values.get(v));
              binding.bind(reference, v + 1, values.get(v));
            }
            final String run = sql + " " + values + " (" + binding + ")";
            compared++;
            try {
              final List<String> expected = rows(reference);
              final List<String> actual = rows(sharded);
              if (!actual.equals(expected)) {
                failures.add(run + " returned " + actual.size() + " rows, expected "
                    + expected.size() + ": " + abbreviate(actual) + " against "
                    + abbreviate(expected));
              }
            } catch (SQLException e) {
              failures.add(run + " failed: " + e.getMessage());
            }
          }
        }
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(12, failures.size())),
        failures.size() + " of " + compared + " differ");
  }

  /** A value near the table's keys and bounds: mostly fractional, sometimes whole or huge. */
  private static BigDecimal value(String table, SplittableRandom random) {
    final long[] near = table.equals("HT")
        ? new long[] {1, 7, 14, 28, 29, -7, 1_000_000_000_000_000_000L}
        : new long[] {-100, -1, 0, 42, 99, 100, 199, 200, 299, 300, 399};
    final BigDecimal base = BigDecimal.valueOf(near[random.nextInt(near.length)]);
    switch (random.nextInt(8)) {
    case 0:
      return base.add(new BigDecimal("0.5"));
    case 1:
      return base.subtract(new BigDecimal("0.5"));
    case 2:
      return base.add(new BigDecimal("0.25"));
    case 3:
      return base.subtract(new BigDecimal("0.75"));
    case 4:
      return base.setScale(1); // whole, written with a fraction: 42.0
    case 5:
      return new BigDecimal(random.nextBoolean() ? "3000000000.5" : "-3000000000");
    case 6:
      return new BigDecimal(random.nextBoolean() ? "1e19" : "-1e19").add(BigDecimal.ONE);
    default:
      return base.negate().add(new BigDecimal("0.5"));
    }
  }

  private static List<String> rows(PreparedStatement p) throws SQLException {
    if (!p.execute()) {
      return List.of(p.getUpdateCount() + " rows");
    }
    try (ResultSet rs = p.getResultSet()) {
      return ShardFixture.sorted(ShardFixture.rows(rs));
    }
  }

  private static String abbreviate(List<String> rows) {
    return rows.size() <= 4 ? rows.toString() : rows.subList(0, 4) + "...";
  }
}
