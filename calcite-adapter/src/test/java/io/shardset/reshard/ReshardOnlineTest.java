package io.shardset.reshard;

import io.shardset.calcite.ShardSchema;
import io.shardset.load.ShardedInserter;
import io.shardset.model.ShardSetModel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resharding a table family of 100,000 rows while it is queried: a fifth shard joins four, or
 * one of five leaves. Checked: the share of rows moved, that no row staying on its shard is
 * touched (a trigger on every shard table records each insert, update and delete), and that
 * every query gives the unsharded oracle's answer before, at the start and end of every step
 * of the move (run from the mover's own thread), all along from a concurrent reader (which
 * the mover waits for to read in each state of the rows), and after.
 */
class ReshardOnlineTest {
  private static final String SCHEMA = "S";
  private static final int CUSTOMERS = 10_000;
  private static final int ORDERS = 90_000;
  private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "RETURNED"};
  private static final String[] COUNTRIES = {"DE", "FR", "IT", "JP", "US", "BR"};
  private static final String[] DDL = {
      "CREATE TABLE CUSTOMERS (CUSTOMER_ID BIGINT PRIMARY KEY, NAME VARCHAR(40),"
          + " COUNTRY CHAR(2))",
      "CREATE TABLE ORDERS (ORDER_ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT NOT NULL,"
          + " STATUS VARCHAR(10), AMOUNT DECIMAL(12, 2), ORDERED_ON DATE)",
      "CREATE TABLE COUNTRIES (CODE CHAR(2) PRIMARY KEY, NAME VARCHAR(40))"};
  private static final String TABLES = """
      "tables": [
        {"name": "CUSTOMERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
        {"name": "ORDERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
        {"name": "COUNTRIES", "method": "duplicated"}]""";
  /** Keys some of which move and some not, for point and IN queries. */
  private static final long[] PROBES = {1, 2, 3, 77, 1_234, 5_000, 9_999};
  private static final List<String> QUERIES = List.of(
      "SELECT COUNT(*), SUM(AMOUNT) FROM ORDERS",
      "SELECT STATUS, COUNT(*), SUM(AMOUNT), MIN(ORDERED_ON) FROM ORDERS GROUP BY STATUS"
          + " ORDER BY STATUS",
      "SELECT c.COUNTRY, COUNT(*), SUM(o.AMOUNT) FROM CUSTOMERS c"
          + " JOIN ORDERS o ON c.CUSTOMER_ID = o.CUSTOMER_ID GROUP BY c.COUNTRY"
          + " ORDER BY c.COUNTRY",
      "SELECT k.NAME, COUNT(*) FROM CUSTOMERS c JOIN COUNTRIES k ON c.COUNTRY = k.CODE"
          + " GROUP BY k.NAME ORDER BY k.NAME",
      "SELECT CUSTOMER_ID, SUM(AMOUNT) FROM ORDERS GROUP BY CUSTOMER_ID"
          + " ORDER BY 2 DESC, 1 LIMIT 5",
      "SELECT COUNT(DISTINCT CUSTOMER_ID) FROM ORDERS",
      "SELECT ORDER_ID, AMOUNT FROM ORDERS WHERE CUSTOMER_ID IN (1, 2, 3, 77, 1234)"
          + " ORDER BY ORDER_ID");
  /** The steps after which the concurrent reader must have read: each state of the rows. */
  private static final Set<Step> PHASES =
      Set.of(Step.ANNOUNCE, Step.DETACH, Step.COPY, Step.SWITCH, Step.MERGE);
  private static final String POINT =
      "SELECT ORDER_ID, STATUS, AMOUNT FROM ORDERS WHERE CUSTOMER_ID = ? ORDER BY ORDER_ID";

  @TempDir
  Path folder;

  private final List<Connection> open = new ArrayList<>();
  private String prefix;

  @AfterEach void closeDatabases() throws SQLException {
    for (Connection c : open) {
      try (Statement s = c.createStatement()) {
        s.execute("SHUTDOWN");
      } catch (SQLException e) {
        // Already closed.
      }
    }
  }

  @Test void aFifthShardTakesAFifthOnline() throws Exception {
    prefix = "online_add";
    final Path model = writeModel(4);
    final Map<String, String> expected = load(model, 4);
    final Map<String, Map<Long, String>> before = placement(5);
    TouchedRows.clear();
    final ShardSetModel start = ModelFile.read(model).model(SCHEMA);
    final ReshardPlan plan = ReshardPlanner.plan(start, new Operation.AddShard("s4",
        Map.of("name", "s4", "jdbcUrl", url("s4")), null));

    moveWhileReading(model, plan, expected);

    final Map<String, Map<Long, String>> after = placement(5);
    final Map<String, Set<String>> moved = movedRows(before, after);
    final double fraction = moved.values().stream().mapToInt(Set::size).sum()
        / 2.0 / (CUSTOMERS + ORDERS);
    assertTrue(Math.abs(fraction - 0.2) < 0.02, "moved " + fraction + " of the rows");
    assertTrue(moved.keySet().stream().allMatch(pair -> pair.endsWith("->s4")),
        "rows moved only to s4: " + moved.keySet());
    assertOnlyMovedRowsTouched(moved);
    assertEquals(expected, answers(connect(model)), "after");
    assertTrue(ModelFile.read(model).model(SCHEMA).chunkMap().stream()
        .anyMatch(e -> e.shard().equals("s4")), "s4 holds hash ranges");
  }

  @Test void aShardLeavesOnline() throws Exception {
    prefix = "online_remove";
    final Path model = writeModel(5);
    final Map<String, String> expected = load(model, 5);
    final Map<String, Map<Long, String>> before = placement(5);
    TouchedRows.clear();
    final ReshardPlan plan = ReshardPlanner.plan(ModelFile.read(model).model(SCHEMA),
        new Operation.RemoveShard("s2"));

    moveWhileReading(model, plan, expected);

    final Map<String, Map<Long, String>> after = placement(5);
    final Map<String, Set<String>> moved = movedRows(before, after);
    final long onS2 = before.values().stream()
        .mapToLong(rows -> rows.values().stream()
            .filter("s2"::equals).count()).sum();
    assertEquals(2 * onS2, moved.values().stream().mapToInt(Set::size).sum(),
        "exactly the rows of s2 moved");
    assertTrue(moved.keySet().stream().allMatch(pair -> pair.startsWith("s2->")),
        "rows moved only from s2: " + moved.keySet());
    final double fraction = onS2 / (double) (CUSTOMERS + ORDERS);
    assertTrue(Math.abs(fraction - 0.2) < 0.02, "moved " + fraction + " of the rows");
    assertOnlyMovedRowsTouched(moved);
    final ShardSetModel end = ModelFile.read(model).model(SCHEMA);
    assertTrue(end.shards().stream().noneMatch(s -> s.name().equals("s2")), "s2 left");
    assertEquals(expected, answers(connect(model)), "after");
  }

  /**
   * Runs the plan while a second thread queries without pause; at each step the mover's thread
   * waits until the reader has finished a whole round that began after the step, and checks
   * the answers itself too.
   */
  private void moveWhileReading(Path model, ReshardPlan plan, Map<String, String> expected)
      throws Exception {
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    final AtomicBoolean done = new AtomicBoolean();
    final AtomicInteger rounds = new AtomicInteger();
    final Thread reader = new Thread(() -> {
      try (Reader r = new Reader(model)) {
        while (!done.get()) {
          final Map<String, String> got = r.answers();
          if (!got.equals(expected)) {
            failures.add("concurrent reader: " + difference(expected, got));
          }
          synchronized (rounds) {
            rounds.incrementAndGet();
            rounds.notifyAll();
          }
        }
      } catch (Throwable e) {
        failures.add("concurrent reader failed: " + e);
        synchronized (rounds) {
          rounds.notifyAll();
        }
      }
    }, "concurrent-reader");
    reader.start();
    final List<String> steps = new ArrayList<>();
    final Reader stepReader = new Reader(model);
    final MoveListener listener = new MoveListener() {
      @Override public void step(Step step, String detail) {
        if (!detail.equals("start") && !detail.equals("done")) {
          return;
        }
        steps.add(step + " " + detail);
        try {
          final Map<String, String> got = stepReader.answers();
          if (!got.equals(expected)) {
            failures.add(step + " " + detail + ": " + difference(expected, got));
          }
        } catch (SQLException e) {
          failures.add(step + " " + detail + ": " + e);
        }
        if (detail.equals("done") && PHASES.contains(step)) {
          awaitRound(rounds, failures);
        }
      }

      @Override public void rows(long copied, long total) {
      }
    };
    try {
      new Mover(model, SCHEMA, new Mover.Settings(Duration.ZERO, Duration.ofSeconds(60), 2_000),
          listener, TablePreparer::prepare).apply(plan);
    } finally {
      done.set(true);
      reader.join(TimeUnit.SECONDS.toMillis(60));
      stepReader.close();
    }
    assertEquals(List.of(), List.copyOf(failures));
    assertTrue(steps.containsAll(List.of("DETACH done", "COPY done", "SWITCH done",
        "MERGE done")), "steps seen: " + steps);
    assertTrue(rounds.get() >= 2 * PHASES.size(), rounds + " reader rounds");
  }

  /**
   * Answers the queries through one connection, made again when ShardSet says that a shard
   * joined since it was made (the one error a reader may see, and only after the switch).
   */
  private final class Reader implements AutoCloseable {
    private final Path model;
    private Connection connection;
    private int reconnects;

    Reader(Path model) throws SQLException {
      this.model = model;
      this.connection = connect(model);
    }

    Map<String, String> answers() throws SQLException {
      try {
        return ReshardOnlineTest.answers(connection);
      } catch (SQLException e) {
        if (!String.valueOf(e.getMessage()).contains("does not know; reconnect")
            || reconnects++ > 0) {
          throw e;
        }
        connection.close();
        connection = connect(model);
        return ReshardOnlineTest.answers(connection);
      }
    }

    @Override public void close() throws SQLException {
      connection.close();
    }
  }

  /** Waits until the reader finishes a round that began after now. */
  private static void awaitRound(AtomicInteger rounds, ConcurrentLinkedQueue<String> failures) {
    synchronized (rounds) {
      final int target = rounds.get() + 2;
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (rounds.get() < target && failures.isEmpty()) {
        final long left = deadline - System.nanoTime();
        if (left <= 0) {
          failures.add("the reader did not finish a round within 60 s");
          return;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(rounds, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private static String difference(Map<String, String> expected, Map<String, String> got) {
    for (Map.Entry<String, String> e : expected.entrySet()) {
      if (!e.getValue().equals(got.get(e.getKey()))) {
        return e.getKey() + "\n  expected " + e.getValue() + "\n  got      " + got.get(e.getKey());
      }
    }
    return "different queries: " + got.keySet();
  }

  /** Every query's answer, and the point query's for each probe key, through ShardSet. */
  private static Map<String, String> answers(Connection c) throws SQLException {
    final Map<String, String> answers = new LinkedHashMap<>();
    try (Statement s = c.createStatement()) {
      for (String sql : QUERIES) {
        try (ResultSet rs = s.executeQuery(sql)) {
          answers.put(sql, text(rs));
        }
      }
    }
    try (PreparedStatement p = c.prepareStatement(POINT)) {
      for (long key : PROBES) {
        p.setLong(1, key);
        try (ResultSet rs = p.executeQuery()) {
          answers.put(POINT + " [" + key + "]", text(rs));
        }
      }
    }
    return answers;
  }

  private static String text(ResultSet rs) throws SQLException {
    final ResultSetMetaData md = rs.getMetaData();
    final StringJoiner rows = new StringJoiner("; ");
    while (rs.next()) {
      final StringJoiner row = new StringJoiner(", ");
      for (int i = 1; i <= md.getColumnCount(); i++) {
        final Object v = rs.getObject(i);
        row.add(v instanceof java.math.BigDecimal d
            ? d.stripTrailingZeros().toPlainString()
            : v instanceof Number n ? Long.toString(n.longValue()) : String.valueOf(v));
      }
      rows.add(row.toString());
    }
    return rows.toString();
  }

  private Connection connect(Path model) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("model", model.toString());
    return DriverManager.getConnection("jdbc:shardset:", info);
  }

  private String url(String shard) {
    return "jdbc:h2:mem:" + prefix + "_" + shard + ";DB_CLOSE_DELAY=-1";
  }

  /** A model file of the first {@code shards} of s0..s4, with default placement. */
  private Path writeModel(int shards) throws Exception {
    final StringJoiner list = new StringJoiner(",\n    ");
    for (int i = 0; i < shards; i++) {
      list.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url("s" + i) + "\"}");
    }
    final Path model = folder.resolve("model.json");
    Files.writeString(model, """
        {"version": "1.0", "defaultSchema": "S", "schemas": [{"name": "S", "type": "custom",
          "factory": "io.shardset.calcite.ShardSchemaFactory",
          "operand": {"shards": [
            %s],
            %s}}]}""".formatted(list, TABLES));
    return model;
  }

  /**
   * Creates the tables on s0..s{shards - 1} and the oracle, loads the rows through ShardSet's
   * routing, installs the trigger, and returns the oracle's answers.
   */
  private Map<String, String> load(Path model, int shards) throws Exception {
    for (int i = 0; i < shards; i++) {
      final Connection c = DriverManager.getConnection(url("s" + i));
      open.add(c);
      try (Statement s = c.createStatement()) {
        for (String ddl : DDL) {
          s.execute(ddl);
        }
      }
    }
    // The shard that may join: an empty database, so that it exists until the test ends.
    if (shards == 4) {
      open.add(DriverManager.getConnection(url("s4")));
    }
    final Connection oracle = DriverManager.getConnection(url("oracle"));
    open.add(oracle);
    try (Statement s = oracle.createStatement()) {
      for (String ddl : DDL) {
        s.execute(ddl);
      }
    }
    final ShardSchema schema = ShardSchema.create(ModelFile.read(model).model(SCHEMA));
    final List<Object[]> countries = new ArrayList<>();
    for (String code : COUNTRIES) {
      countries.add(new Object[] {code, "Country " + code});
    }
    insert(schema, oracle, "COUNTRIES", countries);
    final List<Object[]> customers = new ArrayList<>();
    for (long id = 1; id <= CUSTOMERS; id++) {
      customers.add(new Object[] {id, "Customer " + id, COUNTRIES[(int) (id % COUNTRIES.length)]});
    }
    insert(schema, oracle, "CUSTOMERS", customers);
    final List<Object[]> orders = new ArrayList<>();
    for (long id = 1; id <= ORDERS; id++) {
      orders.add(new Object[] {id, 1 + (id * 7919) % CUSTOMERS, STATUSES[(int) (id % 4)],
          java.math.BigDecimal.valueOf(id % 10_000, 2),
          LocalDate.of(2024, 1, 1).plusDays(id % 365)});
    }
    insert(schema, oracle, "ORDERS", orders);
    for (int i = 0; i < shards; i++) {
      for (String table : List.of("CUSTOMERS", "ORDERS")) {
        TouchedRows.install(open.get(i), "s" + i, table);
      }
    }
    return answers(oracle);
  }

  private static void insert(ShardSchema schema, Connection oracle, String table,
      List<Object[]> rows) throws SQLException {
    try (ShardedInserter inserter = ShardedInserter.open(schema.table(table), 1_000)) {
      rows.forEach(inserter::insert);
    }
    final String marks = String.join(", ", java.util.Collections.nCopies(rows.get(0).length,
        "?"));
    try (PreparedStatement p =
             oracle.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
      for (Object[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          p.setObject(i + 1, row[i]);
        }
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  /** For CUSTOMERS and ORDERS, the shard of each row by its first column, read directly. */
  private Map<String, Map<Long, String>> placement(int shards) throws SQLException {
    final Map<String, Map<Long, String>> placement = new TreeMap<>();
    for (String table : List.of("CUSTOMERS", "ORDERS")) {
      final Map<Long, String> rows = new HashMap<>();
      for (int i = 0; i < shards; i++) {
        final String shard = "s" + i;
        try (Connection c = DriverManager.getConnection(url(shard));
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
          while (rs.next()) {
            final String previous = rows.put(rs.getLong(1), shard);
            assertEquals(null, previous, table + " row " + rs.getLong(1) + " on " + previous
                + " and " + shard);
          }
        } catch (SQLException e) {
          if (!e.getMessage().contains("not found")) {
            throw e;
          }
        }
      }
      assertEquals(table.equals("ORDERS") ? ORDERS : CUSTOMERS, rows.size(), table + " rows");
      placement.put(table, rows);
    }
    return placement;
  }

  /**
   * "source->target" to the rows that moved, each as "shard/table/key" on its source and on
   * its target.
   */
  private static Map<String, Set<String>> movedRows(Map<String, Map<Long, String>> before,
      Map<String, Map<Long, String>> after) {
    final Map<String, Set<String>> moved = new TreeMap<>();
    before.forEach((table, rows) -> rows.forEach((key, shard) -> {
      final String now = after.get(table).get(key);
      if (!now.equals(shard)) {
        final Set<String> pair = moved.computeIfAbsent(shard + "->" + now,
            k -> new HashSet<>());
        pair.add(shard + "/" + table + "/" + key);
        pair.add(now + "/" + table + "/" + key);
      }
    }));
    return moved;
  }

  /**
   * The trigger saw every moved row leave its source, and no other change than moved rows
   * arriving on their targets.
   */
  private static void assertOnlyMovedRowsTouched(Map<String, Set<String>> moved) {
    final Set<String> expected = new HashSet<>();
    moved.values().forEach(expected::addAll);
    final Set<String> leaving = new HashSet<>();
    moved.forEach((pair, rows) -> rows.stream()
        .filter(row -> row.startsWith(pair.substring(0, pair.indexOf('-')) + "/"))
        .forEach(leaving::add));
    final Set<String> touched = new HashSet<>(TouchedRows.touched());
    final Set<String> stayedButTouched = new HashSet<>(touched);
    stayedButTouched.removeAll(expected);
    assertEquals(Set.of(), stayedButTouched.size() > 20 ? Set.of(stayedButTouched.size()
        + " rows") : stayedButTouched, "rows that stayed but were touched");
    final Set<String> movedButNotSeen = new HashSet<>(leaving);
    movedButNotSeen.removeAll(touched);
    assertEquals(Set.of(), movedButNotSeen.size() > 20 ? Set.of(movedButNotSeen.size()
        + " rows") : movedButNotSeen, "moved rows the trigger did not see");
  }
}
