package io.shardset.cli;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.load.ShardedInserter;
import io.shardset.model.ShardSetModel;
import io.shardset.reshard.ModelFile;
import io.shardset.reshard.MoveListener;
import io.shardset.reshard.Mover;
import io.shardset.reshard.Operation;
import io.shardset.reshard.ReshardPlanner;
import io.shardset.reshard.Step;
import io.shardset.reshard.TablePreparer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code shardset reshard show|plan|apply} on four in-memory H2 shards and a fifth to add. */
class ReshardCommandTest {
  private static final AtomicInteger NEW_SHARDS = new AtomicInteger();
  private static final int ORDERS = 4_000;
  private static final String TABLES = """
      "tables": [{"name": "ORDERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]}]""";
  private static final String DDL = "CREATE TABLE ORDERS (ORDER_ID BIGINT PRIMARY KEY,"
      + " CUSTOMER_ID BIGINT NOT NULL, TOTAL DECIMAL(10, 2))";

  @TempDir Path folder;
  private H2Shards shards;
  private String newShardUrl;
  private String out = "";
  private String err = "";

  @BeforeEach void loadOrders() throws Exception {
    shards = H2Shards.create(folder, 4, TABLES, DDL);
    newShardUrl =
        "jdbc:h2:mem:reshard_new" + NEW_SHARDS.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
    try (ShardedInserter inserter = ShardedInserter.open(shards.table("ORDERS").sharded(), 500)) {
      for (long id = 1; id <= ORDERS; id++) {
        inserter.insert(id, 1 + id * 31 % 1_000, BigDecimal.valueOf(id, 2));
      }
    }
  }

  @AfterEach void closeShards() throws SQLException {
    shards.close();
    try (Connection c = DriverManager.getConnection(newShardUrl, "sa", "");
         Statement s = c.createStatement()) {
      s.execute("SHUTDOWN");
    }
  }

  private int reshard(String... args) {
    final List<String> all = new ArrayList<>(List.of("reshard"));
    all.addAll(List.of(args));
    all.addAll(List.of("--model", shards.modelFile().toString()));
    final CliRun run = CliRun.of(all.toArray(new String[0]));
    out = run.out();
    err = run.err();
    return run.code();
  }

  @Test void showsEachShardsShare() {
    assertEquals(0, reshard("show"), err);
    assertEquals("""
        shardspace 'default': 4 shards, 480 hash ranges (default placement)
          s0: 120 ranges, 25.00 % of the hash space
          s1: 120 ranges, 25.00 % of the hash space
          s2: 120 ranges, 25.00 % of the hash space
          s3: 120 ranges, 25.00 % of the hash space
        move in progress: none
        """, out);
  }

  @Test void planCountsWhatApplyMoves() throws Exception {
    final Map<Long, Integer> before = placement(5);
    assertEquals(0, reshard("plan", "add-shard", "s4", "--jdbc-url", newShardUrl,
        "--jdbc-user", "sa"), err);
    assertTrue(out.startsWith("""
        plan: add-shard s4 (shardspace 'default')
        hash ranges that move: 96 (20.0 % of the hash space)
        """), out);
    final Map<String, Long> planned = pairRows(out);
    assertEquals(placement(5), before, "plan changes nothing");
    assertTrue(out.contains("hash % N placement (hash mod 4 -> hash mod 5) would move"), out);

    assertEquals(0, reshard("apply", "add-shard", "s4", "--jdbc-url", newShardUrl,
        "--jdbc-user", "sa", "--grace", "0s"), err);
    final Map<String, Long> moved = new TreeMap<>();
    placement(5).forEach((order, shard) -> {
      if (!shard.equals(before.get(order))) {
        moved.merge("s" + before.get(order) + " -> s" + shard, 1L, Long::sum);
      }
    });
    assertEquals(planned, moved, "rows per shard pair, planned and moved");
    final long total = moved.values().stream().mapToLong(Long::longValue).sum();
    assertTrue(out.contains("done: add-shard s4\nmoved " + String.format(Locale.ROOT, "%,d", total)
        + " rows of 4,000 ("), out);
    assertTrue(err.contains("copy: done"), err);
    assertEquals(0, reshard("show"), err);
    assertTrue(out.contains("  s4: 96 ranges, 20.00 % of the hash space\n"), out);
    assertTrue(out.endsWith("move in progress: none\n"), out);
  }

  @Test void applyResumesAnInterruptedMove() throws Exception {
    final Path model = shards.modelFile();
    final ShardSetModel start = ModelFile.read(model).model(H2Shards.SCHEMA);
    final MoveListener crash = new MoveListener() {
      @Override public void step(Step step, String detail) {
        if (step == Step.SWITCH && detail.equals("start")) {
          throw new IllegalStateException("crash before the switch");
        }
      }

      @Override public void rows(long copied, long total) {
      }
    };
    final Mover mover = new Mover(model, H2Shards.SCHEMA,
        new Mover.Settings(Duration.ZERO, Duration.ofSeconds(30), 500), crash,
        TablePreparer::prepare, ShardSetRuntime.get().topology());
    assertThrows(IllegalStateException.class, () -> mover.apply(ReshardPlanner.plan(start,
        new Operation.AddShard("s4",
            Map.of("name", "s4", "jdbcUrl", newShardUrl, "jdbcUser", "sa"), null))));

    assertEquals(0, reshard("show"), err);
    assertTrue(out.endsWith("move in progress: add-shard s4, phase copy, 96 ranges of"
        + " shardspace 'default' (run apply to finish it)\n"), out);
    assertEquals(1, reshard("plan", "remove-shard", "s1"));
    assertEquals("plan failed: schema 'S' has a move in progress (add-shard s4, phase copy);"
        + " resume it before planning another\n", err);

    assertEquals(0, reshard("apply", "--grace", "0s"), err);
    assertTrue(out.startsWith("resumed and finished add-shard s4\nmoved "), out);
    final Map<Long, Integer> after = placement(5);
    final long onS4 = after.values().stream().filter(shard -> shard == 4).count();
    assertTrue(out.contains("moved " + String.format(Locale.ROOT, "%,d", onS4) + " rows in "), out);
    assertTrue(err.startsWith("resuming add-shard s4 (phase copy)\n"), err);
    assertEquals(ORDERS, after.size());
    assertTrue(after.containsValue(4), "s4 holds rows");
  }

  @Test void splitMovesNoRowAndMoveChunkMovesOneRange() throws Exception {
    final Map<Long, Integer> before = placement(4);
    assertEquals(0, reshard("apply", "split-chunk", "0", "--grace", "0s"), err);
    assertTrue(out.startsWith("""
        plan: split-chunk 0 (shardspace 'default')
        no hash range changes shard; no row moves
        chunk map: 480 entries before, 481 after
        """), out);
    assertEquals(before, placement(4));
    assertEquals(0, reshard("show", "--ranges"), err);
    final Matcher second = Pattern.compile("\n    \\[(\\d+), (\\d+)\\) s0(?=\n)").matcher(out);
    assertTrue(second.find() && second.group(1).equals("0"), out);
    assertTrue(second.find(), out);
    final long from = Long.parseLong(second.group(1));
    assertEquals(4473924L, from, "the second half of chunk 0");

    assertEquals(0, reshard("apply", "move-chunk", Long.toString(from), "s2", "--grace", "0s"),
        err);
    assertTrue(out.contains("  s0 -> s2: 1 ranges, "), out);
    final Map<Long, Integer> after = placement(4);
    before.forEach((order, shard) -> {
      if (!after.get(order).equals(shard)) {
        assertEquals(List.of(0, 2), List.of(shard, after.get(order)), "order " + order);
      }
    });
  }

  @Test void wrongCommandLines() {
    assertEquals(2, reshard("plan"));
    assertTrue(err.startsWith("Missing an operation\n"), err);
    assertEquals(2, reshard("plan", "frobnicate", "s4"));
    assertTrue(err.startsWith("unknown operation 'frobnicate'; operations are add-shard,"
        + " remove-shard, move-chunk, split-chunk\n"), err);
    assertEquals(2, reshard("plan", "add-shard", "s4"));
    assertTrue(err.startsWith("add-shard needs the new shard's --jdbc-url\n"), err);
    assertEquals(2, reshard("plan", "move-chunk", "12x", "s1"));
    assertTrue(err.startsWith("'12x' is not a hash: ranges are named by their first hash, as"
        + " show lists them\n"), err);
    assertEquals(2, reshard("apply", "remove-shard", "s1", "--grace", "5 parsecs"));
    assertTrue(err.startsWith("--grace: '5 parsecs' is not a duration such as 0s, 500ms, 10s"
        + " or 2m\n"), err);
    assertEquals(1, reshard("apply", "add-shard", "s0", "--jdbc-url", newShardUrl));
    assertEquals("apply failed: shard 's0' exists already\n", err);
    assertEquals(1, reshard("plan", "remove-shard", "s7"));
    assertTrue(err.startsWith("plan failed: "), err);
    assertTrue(err.contains("s7"), err);
  }

  @Test void aRejectedShardUrlIsPrintedWithoutItsPassword() {
    // The driver manager's message repeats the URL it found no driver for.
    final String url = "jdbc:nosuchdb://db.example:5432/shop?user=app&password=hunter2";
    assertEquals(1, reshard("apply", "add-shard", "s4", "--jdbc-url", url,
        "--jdbc-user", "app", "--jdbc-password", "pw-top-secret"));
    assertTrue(err.contains("apply failed: cannot prepare new shard 's4': No suitable driver"
        + " found for jdbc:nosuchdb://db.example:5432/shop?user=app&password=****\n"), err);
    assertFalse(err.contains("hunter2"), err);
    assertFalse(err.contains("pw-top-secret"), err);
    assertFalse(out.contains("hunter2"), out);
  }

  /** The rows per shard pair in plan output: "  s0 -> s4: 24 ranges, 1,012 rows". */
  private static Map<String, Long> pairRows(String planOutput) {
    final Map<String, Long> rows = new TreeMap<>();
    final Matcher m = Pattern.compile("\n  (s\\d -> s\\d): [\\d,]+ ranges, ([\\d,]+) rows")
        .matcher(planOutput);
    while (m.find()) {
      rows.put(m.group(1), Long.parseLong(m.group(2).replace(",", "")));
    }
    return rows;
  }

  /** Each order's shard (0..count-1), read from the shards themselves. */
  private Map<Long, Integer> placement(int count) throws SQLException {
    final Map<Long, Integer> placement = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      final String url = i < 4 ? shardUrl(i) : newShardUrl;
      try (Connection c = DriverManager.getConnection(url, "sa", "");
           Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT ORDER_ID FROM ORDERS")) {
        while (rs.next()) {
          final Integer previous = placement.put(rs.getLong(1), i);
          assertEquals(null, previous, "order " + rs.getLong(1) + " twice");
        }
      } catch (SQLException e) {
        if (!e.getMessage().contains("not found")) {
          throw e;
        }
      }
    }
    return placement;
  }

  private String shardUrl(int shard) {
    return shards.url(shard);
  }
}
