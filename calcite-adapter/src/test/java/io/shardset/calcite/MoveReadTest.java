package io.shardset.calcite;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.load.ShardedInserter;
import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ReshardSpec;
import io.shardset.routing.ChunkMap;
import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads while ranges of a table family move to another shard, the move done by hand from
 * the test through every state the resharding tool passes (see the resharding design):
 * statements prepared before the move, fresh statements and new connections all give the
 * unsharded oracle's answers in each state, through both drivers, and so do connections opened
 * before the new shard joined (their cached plans made on three shards), which also write.
 */
class MoveReadTest {
  private static final Pattern PARAMETER = Pattern.compile("\\?");
  private static final String SCHEMA = ShardFixture.SCHEMA;
  private static final int CHUNKS = 12;
  private static final int CUSTOMERS = 300;
  /** The carried physical tables; VISITS is subpartitioned by year. */
  private static final List<String> CARRIED =
      List.of("ORDERS", "LINES", "VISITS_OLD", "VISITS_NEW");
  private static final String[] SHARD_DDL = {orders("ORDERS"), lines("LINES"),
      visits("VISITS_OLD"), visits("VISITS_NEW"), regions()};
  private static final String[] ORACLE_DDL = {orders("ORDERS"), lines("LINES"),
      visits("VISITS"), regions()};
  private static final String TABLES = String.format(Locale.ROOT, """
      "chunks": %d,
      "tables": [
        {"name": "ORDERS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
        {"name": "LINES", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"]},
        {"name": "VISITS", "method": "consistent-hash", "shardKey": ["CUSTOMER_ID"],
         "subpartitions": {"column": "YR", "ranges": [{"name": "old", "to": 2020},
                                                      {"name": "new", "from": 2020}]}},
        {"name": "REGIONS", "method": "duplicated"}]""", CHUNKS);

  @TempDir Path folder;

  private static String orders(String name) {
    return "CREATE TABLE " + name + " (ID INTEGER PRIMARY KEY, CUSTOMER_ID INTEGER NOT NULL,"
        + " REGION VARCHAR(4) NOT NULL, STATUS VARCHAR(8) NOT NULL, AMOUNT DECIMAL(10, 2))";
  }

  private static String lines(String name) {
    return "CREATE TABLE " + name + " (ORDER_ID INTEGER NOT NULL, LINE_NO INTEGER NOT NULL,"
        + " CUSTOMER_ID INTEGER NOT NULL, QTY INTEGER NOT NULL,"
        + " PRIMARY KEY (ORDER_ID, LINE_NO))";
  }

  private static String visits(String name) {
    return "CREATE TABLE " + name + " (ID INTEGER PRIMARY KEY, CUSTOMER_ID INTEGER NOT NULL,"
        + " YR INTEGER NOT NULL, PAGES INTEGER NOT NULL)";
  }

  private static String regions() {
    return "CREATE TABLE REGIONS (CODE VARCHAR(4) PRIMARY KEY, NAME VARCHAR(20) NOT NULL)";
  }

  /** A query, its parameter values, and whether its rows come in a defined order. */
  private record Query(String sql, List<Object> params) {
    Query(String sql, Object... params) {
      this(sql, List.of(params));
    }

    /** The text with its parameters written in, for the oracle. */
    String literal() {
      String text = sql;
      for (Object param : params) {
        text = PARAMETER.matcher(text).replaceFirst(param.toString());
      }
      return text;
    }
  }

  /** The shards, the oracle, the model file and the move of one run. */
  private final class Scenario implements AutoCloseable {
    final Backend.Databases databases;
    final Map<String, Connection> shards = new LinkedHashMap<>();
    final Connection oracle;
    final Path file = folder.resolve("model.json");
    final List<ChunkMapSpec> before = new ArrayList<>();
    final List<ChunkMapSpec> after = new ArrayList<>();
    final List<ReshardSpec.MoveSpec> moves = new ArrayList<>();
    final int movingKey;
    final int stayingKey;

    Scenario(Backend backend, String prefix) throws SQLException {
      databases = backend.create(prefix, 4);
      for (ShardConnectionSettings shard : databases.shards()) {
        final Connection c = DriverManager.getConnection(shard.jdbcUrl(), shard.user(), "");
        shards.put(shard.shardName(), c);
        for (String ddl : SHARD_DDL) {
          execute(c, ddl);
        }
      }
      oracle = databases.connectOracle();
      for (String ddl : ORACLE_DDL) {
        execute(oracle, ddl);
      }
      // s0..s2 hold 12 chunks; three of them, one from each, move to s3.
      final List<ChunkMap.Entry> entries = ChunkMap.defaultPlacement(CHUNKS, 3).entries();
      for (int i = 0; i < entries.size(); i++) {
        final ChunkMap.Entry e = entries.get(i);
        final String owner = "s" + e.shard();
        before.add(new ChunkMapSpec(e.from(), e.to(), owner));
        final boolean moving = i == 1 || i == 5 || i == 9;
        if (moving) {
          moves.add(new ReshardSpec.MoveSpec(e.from(), e.to(), owner, "s3"));
        }
        after.add(new ChunkMapSpec(e.from(), e.to(), moving ? "s3" : owner));
      }
      movingKey = IntStream.rangeClosed(1, CUSTOMERS).filter(this::moves).findFirst()
          .orElseThrow();
      stayingKey = IntStream.rangeClosed(1, CUSTOMERS).filter(k -> !moves(k)).findFirst()
          .orElseThrow();
    }

    boolean moves(int key) {
      final long hash = MoveByHand.hash(key);
      return moves.stream().anyMatch(m -> m.contains(hash));
    }

    ReshardSpec reshard(ReshardSpec.Phase phase) {
      return new ReshardSpec("default", phase, moves, "move-chunk", null);
    }

    MoveByHand mover() {
      return new MoveByHand(shards, CARRIED, "CUSTOMER_ID");
    }

    /** Writes the model file atomically and makes this process's schemas follow it. */
    void publish(List<String> shardNames, List<ChunkMapSpec> chunkMap,
        ReshardSpec.Phase phase) throws Exception {
      publish(shardNames, chunkMap, phase, Duration.ofSeconds(10));
    }

    /**
     * Writes the model file atomically, makes this process's schemas follow it and waits up
     * to {@code drain} for the executions under older versions to end.
     *
     * @throws TimeoutException if some still run then
     */
    void publish(List<String> shardNames, List<ChunkMapSpec> chunkMap,
        ReshardSpec.Phase phase, Duration drain) throws Exception {
      final StringJoiner shardsJson = new StringJoiner(",\n    ", "[", "]");
      for (ShardConnectionSettings shard : databases.shards()) {
        if (shardNames.contains(shard.shardName())) {
          shardsJson.add("{\"name\": \"" + shard.shardName() + "\", \"jdbcUrl\": \""
              + shard.jdbcUrl() + "\", \"jdbcUser\": \"" + shard.user()
              + "\", \"jdbcPassword\": \"\"}");
        }
      }
      final StringJoiner map = new StringJoiner(",\n    ", "[", "]");
      chunkMap.forEach(e -> map.add("{\"from\": " + e.from() + ", \"to\": " + e.to()
          + ", \"shard\": \"" + e.shard() + "\"}"));
      final StringJoiner moveJson = new StringJoiner(", ", "[", "]");
      moves.forEach(m -> moveJson.add("{\"from\": " + m.from() + ", \"to\": " + m.to()
          + ", \"source\": \"" + m.source() + "\", \"target\": \"" + m.target() + "\"}"));
      final String reshard = phase == null ? "" : ",\n  \"reshard\": {\"shardspace\":"
          + " \"default\", \"phase\": \"" + phase.modelName() + "\", \"operation\":"
          + " \"move-chunk\", \"moves\": " + moveJson + "}";
      final String model = "{\"version\": \"1.0\", \"defaultSchema\": \"" + SCHEMA + "\","
          + " \"schemas\": [{\"name\": \"" + SCHEMA + "\", \"type\": \"custom\","
          + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {\n"
          + "  \"shards\": " + shardsJson + ",\n"
          + (chunkMap.isEmpty() ? "" : "  \"chunkMap\": " + map + ",\n")
          + TABLES + reshard + "}}]}";
      final Path temp = folder.resolve("model.json.tmp");
      Files.writeString(temp, model);
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      ShardSetRuntime.get().liveModels().publishAndDrain(file, drain);
    }

    Connection connect(String driver) throws SQLException {
      return DriverManager.getConnection(driver + "model=" + file);
    }

    /** Loads the rows through ShardSet's routing and into the oracle. */
    void load(Connection connection) throws SQLException {
      final List<Object[]> orders = new ArrayList<>();
      final List<Object[]> lines = new ArrayList<>();
      final List<Object[]> visits = new ArrayList<>();
      final String[] regions = {"N", "S", "E", "W"};
      for (int id = 1; id <= 1500; id++) {
        final int customer = id % CUSTOMERS + 1;
        orders.add(new Object[] {id, customer, regions[id % 4],
            id % 3 == 0 ? "OPEN" : "SHIPPED", new BigDecimal(id % 97 + "." + id % 10 + "5")});
        lines.add(new Object[] {id, 1, customer, id % 7 + 1});
        lines.add(new Object[] {id, 2, customer, id % 5 + 1});
      }
      for (int id = 1; id <= 900; id++) {
        visits.add(new Object[] {id, id % CUSTOMERS + 1, 2017 + id % 6, id % 13});
      }
      load(connection, "ORDERS", orders);
      load(connection, "LINES", lines);
      load(connection, "VISITS", visits);
      load(connection, "REGIONS", List.of(new Object[] {"N", "North"},
          new Object[] {"S", "South"}, new Object[] {"E", "East"}, new Object[] {"W", "West"}));
      // A shard joins with the duplicated tables' rows.
      for (String region : regions) {
        execute(shards.get("s3"), "INSERT INTO REGIONS SELECT * FROM (VALUES ('" + region
            + "', '" + oracleName(region) + "')) AS v(c, n)");
      }
    }

    private String oracleName(String region) throws SQLException {
      return oracleRows("SELECT NAME FROM REGIONS WHERE CODE = '" + region + "'").get(0);
    }

    private void load(Connection connection, String table, List<Object[]> rows)
        throws SQLException {
      try (ShardedInserter inserter =
               ShardedInserter.open(table(connection, table).sharded(), 500)) {
        rows.forEach(inserter::insert);
      }
      insertIntoOracle(table, rows);
    }

    void insertIntoOracle(String table, List<Object[]> rows) throws SQLException {
      ShardFixture.insert(oracle, table, rows);
    }

    List<String> oracleRows(String sql) throws SQLException {
      try (Statement s = oracle.createStatement(); ResultSet rs = s.executeQuery(sql)) {
        return ShardFixture.rows(rs);
      }
    }

    @Override public void close() throws SQLException {
      for (Connection c : shards.values()) {
        c.close();
      }
      oracle.close();
      databases.close();
    }
  }

  private static ShardTable table(Connection connection, String name) throws SQLException {
    final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
    return Objects.requireNonNull(root.subSchemas().get(SCHEMA), SCHEMA)
        .unwrap(ShardSchema.class).table(name);
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static List<Query> queries(int moving, int staying) {
    return List.of(
        new Query("SELECT COUNT(*) FROM ORDERS"),
        new Query("SELECT SUM(QTY), COUNT(*) FROM LINES"),
        new Query("SELECT STATUS, COUNT(*), SUM(AMOUNT) FROM ORDERS GROUP BY STATUS"
            + " ORDER BY STATUS"),
        new Query("SELECT o.CUSTOMER_ID, COUNT(*), SUM(l.QTY) FROM ORDERS o JOIN LINES l"
            + " ON o.CUSTOMER_ID = l.CUSTOMER_ID AND o.ID = l.ORDER_ID"
            + " GROUP BY o.CUSTOMER_ID ORDER BY 1"),
        new Query("SELECT r.NAME, COUNT(*) FROM ORDERS o JOIN REGIONS r ON o.REGION = r.CODE"
            + " GROUP BY r.NAME ORDER BY 1"),
        new Query("SELECT ID, AMOUNT FROM ORDERS WHERE CUSTOMER_ID = " + moving
            + " ORDER BY ID"),
        new Query("SELECT COUNT(*), SUM(QTY) FROM LINES WHERE CUSTOMER_ID = " + staying),
        new Query("SELECT ID, STATUS FROM ORDERS WHERE CUSTOMER_ID = ? ORDER BY ID", moving),
        new Query("SELECT ID FROM ORDERS WHERE CUSTOMER_ID IN (?, ?, ?) ORDER BY ID",
            moving, staying, moving + 1),
        new Query("SELECT ID, AMOUNT FROM ORDERS ORDER BY AMOUNT DESC, ID LIMIT 7"),
        new Query("SELECT COUNT(*), SUM(PAGES) FROM VISITS"),
        new Query("SELECT YR, COUNT(*) FROM VISITS WHERE YR >= ? GROUP BY YR ORDER BY YR",
            2019),
        new Query("SELECT ID, YR FROM VISITS WHERE CUSTOMER_ID = ? AND YR < 2020 ORDER BY ID",
            moving));
  }

  /** Statements of one connection, prepared before the move started. */
  private record Prepared(Connection connection, List<PreparedStatement> statements) {
    static Prepared of(Connection connection, List<Query> queries) throws SQLException {
      final List<PreparedStatement> statements = new ArrayList<>();
      for (Query query : queries) {
        statements.add(connection.prepareStatement(query.sql()));
      }
      return new Prepared(connection, statements);
    }
  }

  private static List<String> run(PreparedStatement statement, Query query)
      throws SQLException {
    for (int i = 0; i < query.params().size(); i++) {
      statement.setObject(i + 1, query.params().get(i));
    }
    try (ResultSet rs = statement.executeQuery()) {
      return ShardFixture.rows(rs);
    }
  }

  /** Every query, prepared before and fresh, on every connection equals the oracle. */
  private static void check(Scenario scenario, String state, List<Query> queries,
      List<Prepared> prepared, List<Connection> connections) throws SQLException {
    for (Query query : queries) {
      final List<String> expected = scenario.oracleRows(query.literal());
      for (Prepared p : prepared) {
        final PreparedStatement statement = p.statements().get(queries.indexOf(query));
        assertEquals(expected, run(statement, query), state + ", prepared before: " + query);
      }
      for (Connection connection : connections) {
        try (PreparedStatement statement = connection.prepareStatement(query.sql())) {
          assertEquals(expected, run(statement, query), state + ", fresh: " + query);
        }
      }
    }
  }

  /**
   * Runs the move on a backend, checking reads in each state.
   *
   * @param everyState whether to go through every state, or stop after the sources detached
   *     their moving rows
   */
  private void moveAndRead(Backend backend, String prefix, boolean everyState)
      throws Exception {
    try (Scenario scenario = new Scenario(backend, prefix)) {
      final List<String> three = List.of("s0", "s1", "s2");
      final List<String> four = List.of("s0", "s1", "s2", "s3");
      scenario.publish(three, List.of(), null);
      final List<Query> queries = queries(scenario.movingKey, scenario.stayingKey);
      try (Connection old = scenario.connect("jdbc:calcite:");
           Connection oldShardset = scenario.connect("jdbc:shardset:")) {
        scenario.load(old);
        // Plans of the three shards in the old jdbc:shardset: connection's cache.
        check(scenario, "before s3 joins", queries, List.of(), List.of(old, oldShardset));
        // s3 joins with no ranges while a transaction of the old jdbc:shardset: connection
        // runs: the transaction ends on the tables it began with, and later statements of
        // the connections opened before take the new tables. Its rows share one shard: a
        // transaction over two would start the decision log beside the model file, in the
        // test's folder, where its recovery thread would outlive the test.
        oldShardset.setAutoCommit(false);
        final List<Object[]> inTransaction = List.of(
            new Object[] {100_006, scenario.stayingKey, "T", "OPEN", new BigDecimal(3)},
            new Object[] {100_007, scenario.stayingKey, "T", "OPEN", new BigDecimal(4)});
        try (Statement s = oldShardset.createStatement()) {
          assertEquals(1, s.executeUpdate("INSERT INTO ORDERS VALUES (100006, "
              + scenario.stayingKey + ", 'T', 'OPEN', 3)"));
          final TimeoutException held = assertThrows(TimeoutException.class,
              () -> scenario.publish(four, scenario.before, null, Duration.ZERO));
          assertTrue(held.getMessage().startsWith("1 execution of schema 'S' under an older"
              + " version of model file"), held.getMessage());
          assertEquals(1, s.executeUpdate("INSERT INTO ORDERS VALUES (100007, "
              + scenario.stayingKey + ", 'T', 'OPEN', 4)"));
        }
        oldShardset.commit();
        oldShardset.setAutoCommit(true);
        scenario.insertIntoOracle("ORDERS", inTransaction);
        try (Connection calcite = scenario.connect("jdbc:calcite:");
             Connection shardset = scenario.connect("jdbc:shardset:")) {
          final List<Prepared> prepared = List.of(Prepared.of(calcite, queries),
              Prepared.of(shardset, queries));
          final List<Connection> all = List.of(calcite, shardset, old, oldShardset);
          check(scenario, "s3 added", queries, prepared, all);
          final MoveByHand mover = scenario.mover();
          final ReshardSpec copy = scenario.reshard(ReshardSpec.Phase.COPY);
          mover.createMoveTables(copy);
          scenario.publish(four, scenario.before, ReshardSpec.Phase.COPY);
          check(scenario, "announced", queries, prepared, all);
          checkLoadRefusesMovingKeys(scenario, calcite);
          checkInsertRefusesMovingKeys(scenario, shardset);
          checkUpdateRefusesMovingRanges(scenario, shardset);
          mover.detach(copy);
          check(scenario, "(a) detached", queries, prepared, withNew(scenario, all));
          if (!everyState) {
            return;
          }
          mover.copy(copy);
          check(scenario, "(b) copied", queries, prepared, withNew(scenario, all));
          scenario.publish(four, scenario.after, ReshardSpec.Phase.SWITCHED);
          check(scenario, "(c) switched", queries, prepared, withNew(scenario, all));
          mover.merge(copy);
          check(scenario, "(d) merged", queries, prepared, withNew(scenario, all));
          scenario.publish(four, scenario.after, null);
          mover.dropMoveTables(copy);
          check(scenario, "(e) done", queries, prepared, withNew(scenario, all));
          // A loader of a connection made before the move routes by the new chunk map.
          final Object[] moved = {100_002, scenario.movingKey, "W", "OPEN", BigDecimal.ONE};
          try (ShardedInserter inserter =
                   ShardedInserter.open(table(calcite, "ORDERS").sharded(), 10)) {
            inserter.insert(moved);
          }
          scenario.insertIntoOracle("ORDERS", List.<Object[]>of(moved));
          check(scenario, "(e) loaded", queries, prepared, all);
          // So do SQL writes of the connections opened before s3 joined.
          for (Connection before : List.of(old, oldShardset)) {
            final int id = before == old ? 100_003 : 100_004;
            try (Statement s = before.createStatement()) {
              assertEquals(1, s.executeUpdate("INSERT INTO ORDERS VALUES (" + id + ", "
                  + scenario.movingKey + ", 'W', 'OPEN', 2)"));
            }
            scenario.insertIntoOracle("ORDERS", List.<Object[]>of(new Object[] {id,
                scenario.movingKey, "W", "OPEN", new BigDecimal(2)}));
          }
          check(scenario, "(e) written", queries, prepared, all);
        }
      }
    }
  }

  /** The connections plus a new one made in this state (closed when the test ends). */
  private static List<Connection> withNew(Scenario scenario, List<Connection> connections)
      throws SQLException {
    final List<Connection> all = new ArrayList<>(connections);
    final Connection fresh = scenario.connect("jdbc:shardset:");
    all.add(fresh);
    FRESH.add(fresh);
    return all;
  }

  private static final List<Connection> FRESH = Collections.synchronizedList(new ArrayList<>());

  /** Rows of a moving range are refused while the move runs; others load. */
  private static void checkLoadRefusesMovingKeys(Scenario scenario, Connection connection)
      throws SQLException {
    final ShardTable orders = table(connection, "ORDERS");
    final ReshardSpec.MoveSpec range = scenario.moves.stream()
        .filter(m -> m.contains(MoveByHand.hash(scenario.movingKey))).findFirst()
        .orElseThrow();
    try (ShardedInserter inserter = ShardedInserter.open(orders.sharded(), 10)) {
      final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> inserter.insert(100_000, scenario.movingKey, "N", "OPEN", BigDecimal.ONE));
      assertEquals("table S.ORDERS: key CUSTOMER_ID = " + scenario.movingKey + " lies in hash"
          + " range [" + range.from() + ", " + range.to() + ") of shardspace 'default', which"
          + " is moving from " + range.source() + " to s3; load it after the move",
          e.getMessage());
      final Object[] staying = {100_001, scenario.stayingKey, "S", "OPEN", BigDecimal.TEN};
      inserter.insert(staying);
      scenario.insertIntoOracle("ORDERS", List.<Object[]>of(staying));
    }
  }

  /**
   * An INSERT of a row of a moving range is refused as retryable (SQLState 40001) and writes
   * nothing, the other rows of its statement included; one of a staying range is written.
   */
  private static void checkInsertRefusesMovingKeys(Scenario scenario, Connection connection)
      throws SQLException {
    final ReshardSpec.MoveSpec range = scenario.moves.stream()
        .filter(m -> m.contains(MoveByHand.hash(scenario.movingKey))).findFirst()
        .orElseThrow();
    try (Statement s = connection.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
          "INSERT INTO ORDERS VALUES (100003, " + scenario.stayingKey + ", 'S', 'OPEN', 1),"
              + " (100004, " + scenario.movingKey + ", 'N', 'OPEN', 1)"));
      assertEquals("40001", e.getSQLState());
      assertTrue(e.getMessage().endsWith("table S.ORDERS: key CUSTOMER_ID = "
          + scenario.movingKey + " lies in hash range [" + range.from() + ", " + range.to()
          + ") of shardspace 'default', which is moving from " + range.source()
          + " to s3; retry after the move"), e.getMessage());
      assertEquals(1, s.executeUpdate("INSERT INTO ORDERS VALUES (100005, "
          + scenario.stayingKey + ", 'S', 'OPEN', 2)"));
    }
    scenario.insertIntoOracle("ORDERS", List.<Object[]>of(
        new Object[] {100_005, scenario.stayingKey, "S", "OPEN", BigDecimal.valueOf(2)}));
  }

  /**
   * An UPDATE or DELETE that may change rows of a moving range is refused as retryable
   * (SQLState 40001) and changes nothing: one reaching every shard, one fixed to a moving key,
   * and one that would move a row of a moving range; one fixed to a staying key runs.
   */
  private static void checkUpdateRefusesMovingRanges(Scenario scenario, Connection connection)
      throws SQLException {
    final ReshardSpec.MoveSpec first = scenario.moves.get(0);
    final ReshardSpec.MoveSpec range = scenario.moves.stream()
        .filter(m -> m.contains(MoveByHand.hash(scenario.movingKey))).findFirst()
        .orElseThrow();
    final List<String> before = scenario.oracleRows("SELECT * FROM ORDERS");
    try (Statement s = connection.createStatement()) {
      final SQLException all = assertThrows(SQLException.class, () -> s.executeUpdate(
          "UPDATE ORDERS SET STATUS = 'HELD' WHERE STATUS <> 'HELD'"));
      assertEquals("40001", all.getSQLState());
      assertTrue(all.getMessage().endsWith("table S.ORDERS: the UPDATE may change rows in"
          + " hash range [" + first.from() + ", " + first.to() + ") of shardspace 'default',"
          + " which is moving from " + first.source() + " to s3; retry after the move"),
          all.getMessage());
      final SQLException point = assertThrows(SQLException.class, () -> s.executeUpdate(
          "DELETE FROM ORDERS WHERE CUSTOMER_ID = " + scenario.movingKey));
      assertEquals("40001", point.getSQLState());
      assertTrue(point.getMessage().endsWith("table S.ORDERS: the DELETE may change rows in"
          + " hash range [" + range.from() + ", " + range.to() + ") of shardspace 'default',"
          + " which is moving from " + range.source() + " to s3; retry after the move"),
          point.getMessage());
      final SQLException move = assertThrows(SQLException.class, () -> s.executeUpdate(
          "UPDATE ORDERS SET CUSTOMER_ID = " + scenario.stayingKey + " WHERE CUSTOMER_ID = "
              + scenario.movingKey));
      assertEquals("40001", move.getSQLState());
      assertTrue(move.getMessage().endsWith("table S.ORDERS: key CUSTOMER_ID = "
          + scenario.movingKey + " lies in hash range [" + range.from() + ", " + range.to()
          + ") of shardspace 'default', which is moving from " + range.source()
          + " to s3; retry after the move"), move.getMessage());
      assertEquals(ShardFixture.sorted(before), ShardFixture.sorted(
          ShardFixture.rows(connection, "SELECT * FROM ORDERS")));
      final String staying = "UPDATE ORDERS SET STATUS = 'HELD' WHERE CUSTOMER_ID = "
          + scenario.stayingKey;
      try (Statement oracle = scenario.oracle.createStatement()) {
        assertEquals(oracle.executeUpdate(staying), s.executeUpdate(staying));
      }
    }
  }

  @Test void readsStayRightThroughEveryStateOfAMove() throws Exception {
    try {
      moveAndRead(Backend.H2, "reshard_reads", true);
    } finally {
      closeFresh();
    }
  }

  /** PostgreSQL folds the move tables' names to lower case, as it does the tables'. */
  @Test void readsStayRightOnPostgresWhileSourcesReadTheirMoveTables() throws Exception {
    try {
      moveAndRead(Backend.POSTGRES, "reshard_reads", false);
    } finally {
      closeFresh();
    }
  }

  private static void closeFresh() throws SQLException {
    for (Connection c : FRESH) {
      c.close();
    }
    FRESH.clear();
  }
}
