package io.shardset.calcite;

import io.shardset.execution.ShardMetrics;
import io.shardset.routing.ShardRouter;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runtime's meters move as the statements run: each shard's statements by outcome and its
 * rows, counted against what the counting shards saw; statements by reach; the plan cache's
 * hits and misses; the pools' gauges; and the meters' MBeans.
 */
class ShardMetricsTest {
  private static final String[] DDL = {"CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR(20))"};
  private static final String TABLES = "\"tables\": ["
      + "{\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]";
  private static final int ROWS = 40;
  private static final List<String> SHARDS = List.of("s0", "s1", "s2", "s3");

  private ShardFixture fixture;
  private ShardRouter router;
  private MeterRegistry registry;

  @BeforeEach void load() throws SQLException {
    fixture = ShardFixture.h2(4, DDL);
    router = fixture.loadNumbered(TABLES, "T", ROWS);
    registry = recording();
  }

  /** The runtime's meters, recording: with no registry added they record nothing, as an
   * embedded runtime's do until the application (or -Dshardset.jmx=true) adds one. */
  static CompositeMeterRegistry recording() {
    final CompositeMeterRegistry composite =
        ShardSetRuntime.get().execution().scanServices().metrics().registry();
    if (composite.getRegistries().stream().noneMatch(SimpleMeterRegistry.class::isInstance)) {
      composite.add(new SimpleMeterRegistry());
    }
    return composite;
  }

  @AfterEach void close() throws SQLException {
    fixture.close();
  }

  /** The count of each shard's statements with an outcome, and the rows of each shard. */
  private Map<String, Long> snapshot() {
    final Map<String, Long> counts = new LinkedHashMap<>();
    for (String shard : SHARDS) {
      for (ShardMetrics.Outcome outcome : ShardMetrics.Outcome.values()) {
        final Timer timer = registry.find(ShardMetrics.STATEMENTS).tag("shard", shard)
            .tag("outcome", outcome.name().toLowerCase(Locale.ROOT)).timer();
        counts.put(shard + " " + outcome, timer == null ? 0 : timer.count());
      }
      final var rows = registry.find(ShardMetrics.ROWS).tag("shard", shard).counter();
      counts.put(shard + " rows", rows == null ? 0 : (long) rows.count());
    }
    for (ShardMetrics.Reach reach : ShardMetrics.Reach.values()) {
      final String tag = reach.name().toLowerCase(Locale.ROOT);
      final var counter = registry.find(ShardMetrics.REACH).tag("reach", tag).counter();
      counts.put("reach " + tag, counter == null ? 0 : (long) counter.count());
    }
    return counts;
  }

  /** What moved between two snapshots, without the meters that did not. */
  private static Map<String, Long> moved(Map<String, Long> before, Map<String, Long> after) {
    final Map<String, Long> moved = new LinkedHashMap<>();
    after.forEach((name, value) -> {
      final long delta = value - before.getOrDefault(name, 0L);
      if (delta != 0) {
        moved.put(name, delta);
      }
    });
    return moved;
  }

  private static int count(Connection connection, String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int rows = 0;
      while (rs.next()) {
        rows++;
      }
      return rows;
    }
  }

  private String shardOf(long key) {
    return "s" + router.shardOf(List.of(key)).orElseThrow();
  }

  @Test void metersCountEachShardStatementAndItsRows() throws SQLException {
    try (Connection connection = Connector.SHARDSET.open(fixture.model(TABLES))) {
      Map<String, Long> before = snapshot();
      assertEquals(1, count(connection, "SELECT V FROM T WHERE K = 7"));
      assertEquals(Map.of(shardOf(7) + " OK", 1L, shardOf(7) + " rows", 1L, "reach one", 1L),
          moved(before, snapshot()));

      before = snapshot();
      fixture.shards().resetCounters();
      assertEquals(ROWS, count(connection, "SELECT V FROM T"));
      final Map<String, Long> expected = new LinkedHashMap<>();
      for (String shard : SHARDS) {
        expected.put(shard + " OK", 1L);
        final long rows = fixture.shards().rowsRead(shard);
        if (rows > 0) {
          expected.put(shard + " rows", rows);
        }
      }
      expected.put("reach all", 1L);
      assertEquals(expected, moved(before, snapshot()));

      before = snapshot();
      assertEquals(0, count(connection, "SELECT V FROM T WHERE K = 7 AND K = 8"));
      assertEquals(Map.of("reach none", 1L), moved(before, snapshot()));
    }
  }

  @Test void aFailingShardCountsAnError() throws SQLException {
    final String failing = shardOf(7);
    fixture.shards().failAfterRows(failing, 0);
    try (Connection connection = Connector.SHARDSET.open(fixture.model(TABLES))) {
      final Map<String, Long> before = snapshot();
      assertThrows(SQLException.class, () -> count(connection, "SELECT V FROM T WHERE K = 7"));
      assertEquals(Map.of(failing + " ERROR", 1L, "reach one", 1L),
          moved(before, snapshot()));
    }
  }

  @Test void planCacheHitsAndMisses() throws SQLException {
    try (Connection connection = Connector.SHARDSET.open(fixture.model(TABLES))) {
      count(connection, "SELECT V FROM T WHERE K = 1");
      final double hits = planCache("hit");
      final double misses = planCache("miss");
      count(connection, "SELECT V FROM T WHERE K = 2");
      assertEquals(hits + 1, planCache("hit"));
      assertEquals(misses, planCache("miss"));
      count(connection, "SELECT K FROM T WHERE V = 'v3' AND K > 0");
      assertEquals(misses + 1, planCache("miss"));
    }
  }

  private double planCache(String result) {
    final FunctionCounter counter = registry.get("shardset.plan.cache").tag("result", result)
        .functionCounter();
    return counter.count();
  }

  @Test void poolsHaveGaugesAndTheMetersAreMBeans() throws Exception {
    // What -Dshardset.jmx=true does when the process runtime is made.
    ShardSetRuntime.get().execution().scanServices().metrics().publishOverJmx();
    try (Connection connection = Connector.SHARDSET.open(fixture.model(TABLES))) {
      count(connection, "SELECT V FROM T");
      assertEquals(0, registry.get(ShardMetrics.WAITING).tag("shard", "s0").gauge().value());
      final var names = ManagementFactory.getPlatformMBeanServer()
          .queryNames(new ObjectName(ShardMetrics.JMX_DOMAIN + ":*"), null);
      assertTrue(names.stream().anyMatch(n -> n.toString().contains("shardsetShardStatements")),
          names.toString());
    }
  }
}
