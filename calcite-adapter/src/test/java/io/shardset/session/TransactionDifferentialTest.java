package io.shardset.session;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;

import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random transactions through ShardSet give, statement by statement, what the same statements
 * give in one transaction on an unsharded database of the same kind (the fixture's oracle), on
 * four shards of each backend: the rows of every SELECT (point reads, scatter reads,
 * aggregates), the update count of every INSERT, UPDATE (pushed, row by row, and changes of
 * the shard key that move a row), DELETE and MERGE, and the SQLState class of every failure.
 * Savepoints are set, rolled back to and released; a statement that fails (a duplicate key, a
 * value out of range) aborts the transaction, so every later statement must fail with 25P02
 * until the transaction is rolled back to a savepoint set before the failure, or rolled back.
 * H2 and MariaDB do not abort a transaction on an error; the test applies the rule to the
 * unsharded database itself, running nothing there while the transaction is aborted. Each
 * transaction ends with a commit or a rollback; then the table read through ShardSet equals the
 * unsharded one, and so do the shards' own rows, each on the shard its key hashes to, none
 * twice.
 *
 * <p>Each transaction comes from one seed (its first rows, its statements and their values);
 * a failure names the seed and lists the statements with both sides' outcomes.
 * {@code -Dshardset.transactions.seed=N} runs only seed N.
 */
class TransactionDifferentialTest {
  private static final String DDL = "CREATE TABLE ITEMS (ID BIGINT PRIMARY KEY,"
      + " GRP INTEGER NOT NULL, STATUS VARCHAR(10), V INTEGER, TOTAL DECIMAL(12, 2) NOT NULL)";
  private static final String COLUMNS = "ID, GRP, STATUS, V, TOTAL";
  private static final long FIRST_SEED = 32_000;
  /** Transactions per backend, one seed each. */
  private static final int SEEDS = 20;
  /** Keys at the edges of BIGINT and around zero, in every transaction's pool. */
  private static final long[] EDGE_KEYS = {0, 1, -1, 2, -42, 65_536, 2_147_483_648L,
      Long.MAX_VALUE, Long.MAX_VALUE - 1, -Long.MAX_VALUE};
  private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "", null};
  /** V's values: the INTEGER extremes leave room for the increments of one transaction. */
  private static final Integer[] VS = {0, 1, -1, 7, 100, 2_147_483_000, Integer.MIN_VALUE,
      null};
  private static final BigDecimal[] TOTALS = {BigDecimal.ZERO, new BigDecimal("1.50"),
      new BigDecimal("-0.01"), new BigDecimal("99.99"), new BigDecimal("9999999999.99")};
  /** What row-by-row updates take from TOTAL, which only falls (from at most its maximum). */
  private static final BigDecimal[] SUBTRAHENDS = {BigDecimal.ZERO, new BigDecimal("0.01"),
      new BigDecimal("1.25")};
  /** SQLState of a statement in an aborted transaction (in failed SQL transaction). */
  private static final String ABORTED = "25P02";

  private ShardFixture fixture;
  private Backend backend;
  private final List<Connection> opened = new ArrayList<>();

  @AfterEach void close() throws SQLException {
    for (Connection c : opened) {
      c.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void eachStatementOfARandomTransactionGivesWhatTheUnshardedDatabaseGives(Backend backend)
      throws SQLException {
    this.backend = backend;
    fixture = ShardFixture.create(backend, HashedItems.SHARDS, DDL);
    final String model = HashedItems.model(fixture, "", "");
    final Connection shardSet = open(Connector.SHARDSET.open(model));
    final Connection observer = open(Connector.SHARDSET.open(model));
    final List<Connection> shards = new ArrayList<>();
    for (String shard : fixture.shards().names()) {
      shards.add(open(fixture.shards().endpoint(shard).connect()));
    }
    final Long only = Long.getLong("shardset.transactions.seed");
    final long start = System.nanoTime();
    int statements = 0;
    for (int i = 0; i < (only == null ? SEEDS : 1); i++) {
      final long seed = only == null ? FIRST_SEED + i : only;
      statements += new Run(seed, shardSet, fixture.oracle()).run(observer, shards);
    }
    System.out.printf(Locale.ROOT, "TransactionDifferentialTest: %s, seeds %d..%d,"
        + " %d steps in %.1f s%n", backend, only == null ? FIRST_SEED : only,
        only == null ? FIRST_SEED + SEEDS - 1 : only, statements,
        (System.nanoTime() - start) / 1e9);
  }

  /**
   * Values a row-by-row UPDATE computes above the shards, and an INSERT's NULL in a NOT NULL
   * column, fail as the database's own statements fail (the same SQLState class): an INTEGER
   * that overflows, a VARCHAR longer than its column, a DECIMAL out of its column's range.
   * The random statements keep their values inside the columns' ranges; this checks the
   * edges.
   */
  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aRowByRowUpdateFailsWhereTheDatabasesOwnUpdateFails(Backend backend)
      throws SQLException {
    this.backend = backend;
    fixture = ShardFixture.create(backend, HashedItems.SHARDS, DDL);
    final Connection shardSet = open(Connector.SHARDSET.open(HashedItems.model(fixture, "",
        "")));
    final Connection oracle = fixture.oracle();
    final String row = "INSERT INTO ITEMS (" + COLUMNS + ") VALUES (1, 1, 'SHIPPED', 2147483647,"
        + " 9999999999.99)";
    for (Connection c : List.of(shardSet, oracle)) {
      try (Statement s = c.createStatement()) {
        s.executeUpdate(row);
      }
      c.setAutoCommit(false);
    }
    final List<String> differences = new ArrayList<>();
    for (String sql : List.of(
        "UPDATE ITEMS SET TOTAL = TOTAL - 0.5, V = V + 1 WHERE ID = 1",
        "UPDATE ITEMS SET STATUS = STATUS || 'abcd' WHERE ID = 1",
        "UPDATE ITEMS SET TOTAL = TOTAL + 1 WHERE ID = 1",
        "INSERT INTO ITEMS (" + COLUMNS + ") VALUES (2, NULL, 'NEW', 0, 0)")) {
      final String got = outcomeAndRows(shardSet, sql);
      final String expected = outcomeAndRows(oracle, sql);
      if (!got.equals(expected)) {
        differences.add(sql + ": ShardSet " + got + ", expected " + expected);
      }
      shardSet.rollback();
      oracle.rollback();
    }
    oracle.setAutoCommit(true);
    assertEquals(List.of(), differences, backend.toString());
  }

  /** What a statement does: its update count and the rows after it, or its failure's class. */
  private static String outcomeAndRows(Connection c, String sql) throws SQLException {
    try {
      return execute(c, sql, List.of(), false).result() + ", then "
          + ShardFixture.rows(c, "SELECT " + COLUMNS + " FROM ITEMS");
    } catch (SQLException e) {
      return Outcome.failed(e).result();
    }
  }

  private Connection open(Connection c) {
    opened.add(c);
    return c;
  }

  /** What a step gave on one side: its rows, its update count, or its failure's class. */
  private record Outcome(String result, String detail) {
    static final Outcome OK = new Outcome("ok", "");

    static Outcome failed(SQLException e) {
      final String state = e.getSQLState();
      return new Outcome("fails, class " + (state == null || state.length() < 2 ? state
          : state.substring(0, 2)), state + " " + e.getMessage());
    }

    boolean failed() {
      return result.startsWith("fails");
    }

    boolean aborted() {
      return result.equals("fails, class " + ABORTED.substring(0, 2));
    }

    @Override public String toString() {
      return detail.isEmpty() ? result : result + " (" + detail + ")";
    }
  }

  /** One side of the comparison: a connection and the savepoints set on it, by name. */
  private static final class Side {
    final Connection connection;
    final Map<String, Savepoint> savepoints = new HashMap<>();

    Side(Connection connection) {
      this.connection = connection;
    }
  }

  /** A step as it runs on one side. */
  @FunctionalInterface
  private interface Action {
    Outcome run(Side side) throws SQLException;
  }

  /**
   * One step: its text for the log, what it does on ShardSet, what it does on the oracle
   * (null: the same), and whether it is a statement that fails while the transaction is
   * aborted.
   */
  private record Step(String text, Action shardSet, Action oracle, boolean refusedWhenAborted) {
  }

  /** A value bound to a parameter or written as a literal; {@code value} null is a NULL of
   * {@code type}. */
  private record Value(Object value, int type) {
    static Value of(long v) {
      return new Value(v, Types.BIGINT);
    }

    static Value of(Integer v) {
      return new Value(v, Types.INTEGER);
    }

    static Value of(String v) {
      return new Value(v, Types.VARCHAR);
    }

    static Value of(BigDecimal v) {
      return new Value(v, Types.DECIMAL);
    }

    String literal() {
      if (value == null) {
        return "NULL";
      }
      if (value instanceof String s) {
        return "'" + s.replace("'", "''") + "'";
      }
      if (value instanceof BigDecimal d) {
        return d.toPlainString();
      }
      return value.toString();
    }

    /** The value as typed SQL, for a VALUES source whose rows must agree on types. */
    String cast() {
      return "CAST(" + literal() + " AS " + switch (type) {
      case Types.BIGINT -> "BIGINT";
      case Types.INTEGER -> "INTEGER";
      case Types.VARCHAR -> "VARCHAR(10)";
      default -> "DECIMAL(12, 2)";
      } + ")";
    }
  }

  /** Runs a statement with parameters, as a prepared statement or with literals in place. */
  private static Outcome execute(Connection c, String sql, List<Value> values,
      boolean prepared) throws SQLException {
    if (!prepared) {
      try (Statement s = c.createStatement()) {
        return outcome(s, s.execute(literally(sql, values)));
      }
    }
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < values.size(); i++) {
        final Value v = values.get(i);
        if (v.value() == null) {
          p.setNull(i + 1, v.type());
        } else {
          p.setObject(i + 1, v.value(), v.type());
        }
      }
      return outcome(p, p.execute());
    }
  }

  /** The statement with each parameter marker replaced by its value's literal. */
  private static String literally(String sql, List<Value> values) {
    final StringBuilder text = new StringBuilder();
    int from = 0;
    for (Value v : values) {
      final int at = sql.indexOf('?', from);
      text.append(sql, from, at).append(v.literal());
      from = at + 1;
    }
    return text.append(sql.substring(from)).toString();
  }

  private static Outcome outcome(Statement s, boolean hasRows) throws SQLException {
    if (!hasRows) {
      return new Outcome("count " + s.getUpdateCount(), "");
    }
    try (ResultSet rs = s.getResultSet()) {
      return new Outcome("rows " + sorted(ShardFixture.rows(rs)), "");
    }
  }

  /** One transaction from one seed, run on ShardSet and on the oracle. */
  private final class Run {
    private final long seed;
    private final Random random;
    private final Side shardSet;
    private final Side oracle;
    private final List<Long> pool = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    /** The savepoints set and not released or rolled past, oldest first. */
    private final List<String> savepoints = new ArrayList<>();
    private int savepointNames;
    private boolean aborted;

    Run(long seed, Connection shardSet, Connection oracle) {
      this.seed = seed;
      this.random = new Random(seed);
      this.shardSet = new Side(shardSet);
      this.oracle = new Side(oracle);
      for (long key : EDGE_KEYS) {
        pool.add(key);
      }
      // Four keys that hash to one shard, and four spread out.
      final long base = random.nextInt(1000);
      for (long k = base; pool.size() < EDGE_KEYS.length + 4; k++) {
        if (HashedItems.shardOf(k) == HashedItems.shardOf(base)) {
          pool.add(k);
        }
      }
      for (int i = 0; i < 4; i++) {
        pool.add((long) random.nextInt(1_000_000) - 500_000);
      }
    }

    /** Runs the transaction and checks the table after it; returns the steps run. */
    int run(Connection observer, List<Connection> shards) throws SQLException {
      reset();
      shardSet.connection.setAutoCommit(false);
      oracle.connection.setAutoCommit(false);
      final int length = 15 + random.nextInt(16);
      for (int i = 0; i < length; i++) {
        if (aborted) {
          for (int ignored = random.nextInt(3); ignored > 0; ignored--) {
            step(random.nextInt(5) == 0 ? setSavepoint() : statement());
          }
          step(recovery());
        } else {
          step(random.nextInt(4) == 0 ? savepointStep() : statement());
        }
      }
      step(aborted || random.nextInt(3) == 0 ? rollbackOrFailedCommit() : commit());
      shardSet.connection.setAutoCommit(true);
      oracle.connection.setAutoCommit(true);
      checkTable(observer, shards);
      return log.size();
    }

    /** Empties the table on both sides and writes the transaction's first rows. */
    private void reset() throws SQLException {
      shardSet.connection.setAutoCommit(true);
      oracle.connection.setAutoCommit(true);
      final StringJoiner rows = new StringJoiner(", ");
      final Set<Long> keys = new LinkedHashSet<>();
      final int count = 4 + random.nextInt(9);
      while (keys.size() < count) {
        keys.add(key());
      }
      for (long key : keys) {
        rows.add(row(key));
      }
      for (Side side : List.of(shardSet, oracle)) {
        try (Statement s = side.connection.createStatement()) {
          s.executeUpdate("DELETE FROM ITEMS");
          s.executeUpdate("INSERT INTO ITEMS (" + COLUMNS + ") VALUES " + rows);
        }
      }
      log.add("(autocommit) DELETE FROM ITEMS; INSERT INTO ITEMS (" + COLUMNS + ") VALUES "
          + rows);
    }

    /** A row with this key and random other values, as a row of INSERT's VALUES. */
    private String row(long key) {
      return "(" + key + ", " + random.nextInt(4) + ", " + status().literal() + ", "
          + v().literal() + ", " + total().literal() + ")";
    }

    private long key() {
      return pool.get(random.nextInt(pool.size()));
    }

    private Value status() {
      return Value.of(STATUSES[random.nextInt(STATUSES.length)]);
    }

    private Value v() {
      return Value.of(VS[random.nextInt(VS.length)]);
    }

    private Value total() {
      return Value.of(TOTALS[random.nextInt(TOTALS.length)]);
    }

    /** The keys of the table now, as the oracle's transaction sees them. */
    private List<Long> present() throws SQLException {
      final List<Long> keys = new ArrayList<>();
      try (Statement s = oracle.connection.createStatement();
           ResultSet rs = s.executeQuery("SELECT ID FROM ITEMS ORDER BY ID")) {
        while (rs.next()) {
          keys.add(rs.getLong(1));
        }
      }
      return keys;
    }

    /** A key of a row of the table, or any key of the pool when the table is empty. */
    private long presentKey(List<Long> present) {
      return present.isEmpty() ? key() : present.get(random.nextInt(present.size()));
    }

    /** A key of the pool no row has, mostly; sometimes (a duplicate) one a row has. */
    private long newKey(List<Long> present, long from) {
      if (random.nextInt(8) == 0 && !present.isEmpty()) {
        return presentKey(present);
      }
      for (int tries = 0; tries < 20; tries++) {
        final long key = key();
        if (!present.contains(key) && HashedItems.shardOf(key) != HashedItems.shardOf(from)) {
          return key;
        }
      }
      long key = HashedItems.onOtherShard(from, random.nextInt(1_000_000));
      while (present.contains(key)) {
        key = HashedItems.onOtherShard(from, key + 1);
      }
      return key;
    }

    /** A random INSERT, UPDATE, DELETE, MERGE or SELECT. */
    private Step statement() throws SQLException {
      final List<Long> present = aborted ? List.of() : present();
      final boolean prepared = random.nextBoolean();
      final int grp = random.nextInt(4);
      final Value group = Value.of(Integer.valueOf(grp));
      switch (random.nextInt(16)) {
      case 0: {
        final long key = presentKey(present);
        return sql("SELECT " + COLUMNS + " FROM ITEMS WHERE ID = ?", List.of(Value.of(key)),
            prepared);
      }
      case 1:
        return sql("SELECT ID, STATUS, V FROM ITEMS WHERE V >= ? OR STATUS IS NULL",
            List.of(v().value() == null ? Value.of(0) : v()), prepared);
      case 2:
        return random.nextBoolean()
            ? sql("SELECT GRP, COUNT(*), COUNT(V), SUM(TOTAL), MIN(ID), MAX(STATUS) FROM ITEMS"
                + " GROUP BY GRP", List.of(), false)
            : sql("SELECT COUNT(*), SUM(TOTAL), MIN(V), MAX(ID) FROM ITEMS WHERE GRP <> ?",
                List.of(group), prepared);
      case 3:
        return sql("SELECT " + COLUMNS + " FROM ITEMS", List.of(), prepared);
      case 15:
        return sql("SELECT ID, V, TOTAL FROM ITEMS WHERE ID IN (?, ?, ?)",
            List.of(Value.of(presentKey(present)), Value.of(key()), Value.of(key())), prepared);
      case 4:
      case 5: {
        final int count = 1 + random.nextInt(3);
        final StringJoiner rows = new StringJoiner(", ");
        final Set<Long> keys = new LinkedHashSet<>();
        while (keys.size() < count) {
          keys.add(newKey(present, key()));
        }
        if (count == 1) {
          final List<Value> values = List.of(Value.of(keys.iterator().next()),
              group, status(), v(), total());
          return sql("INSERT INTO ITEMS (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?)", values,
              prepared);
        }
        for (long key : keys) {
          rows.add(row(key));
        }
        return sql("INSERT INTO ITEMS (" + COLUMNS + ") VALUES " + rows, List.of(), false);
      }
      case 6: {
        // Pushed to the shards.
        final String where = switch (random.nextInt(3)) {
        case 0 -> "ID = " + presentKey(present);
        case 1 -> "GRP = " + grp;
        default -> "V < 5";
        };
        return sql("UPDATE ITEMS SET STATUS = ? WHERE " + where, List.of(status()), prepared);
      }
      case 7: {
        // Pushed, computed by the shards.
        final String where = random.nextBoolean() ? "ID = " + presentKey(present)
            : "GRP = " + grp;
        return sql("UPDATE ITEMS SET V = V + 1 WHERE " + where, List.of(), prepared);
      }
      case 8: {
        // Row by row: the new values are computed above the shards from the rows read.
        final boolean constant = random.nextBoolean();
        final String set = constant ? "TOTAL = TOTAL - 0.5, V = V + 1"
            : "TOTAL = TOTAL - ?, STATUS = ?";
        final List<Value> values = constant ? List.of()
            : List.of(Value.of(SUBTRAHENDS[random.nextInt(SUBTRAHENDS.length)]), status());
        final String where = switch (random.nextInt(3)) {
        case 0 -> "ID = " + presentKey(present);
        case 1 -> "GRP = " + grp;
        default -> "STATUS IS NULL OR V > 50";
        };
        return sql("UPDATE ITEMS SET " + set + " WHERE " + where, values, prepared);
      }
      case 9:
      case 10: {
        // A change of the shard key, mostly to another shard; sometimes onto another row.
        final long from = presentKey(present);
        final long to = random.nextInt(10) == 0 ? from : newKey(present, from);
        return sql(random.nextBoolean() ? "UPDATE ITEMS SET ID = ? WHERE ID = ?"
            : "UPDATE ITEMS SET ID = ?, V = V + 1 WHERE ID = ?",
            List.of(Value.of(to), Value.of(from)), prepared);
      }
      case 11: {
        final String where = switch (random.nextInt(3)) {
        case 0 -> "ID = " + presentKey(present);
        case 1 -> "GRP = " + grp + " AND V > 0";
        default -> "STATUS IS NULL";
        };
        return sql("DELETE FROM ITEMS WHERE " + where, List.of(), prepared);
      }
      case 12:
      case 13:
        return merge(present);
      default: {
        // Fails: a duplicate key, a value out of INTEGER's range.
        return random.nextBoolean()
            ? sql("INSERT INTO ITEMS (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?)",
                List.of(Value.of(presentKey(present)), group, status(), v(), total()),
                prepared)
            : sql("UPDATE ITEMS SET V = V + 2147483647 WHERE V > 0 AND ID = "
                + presentKey(present), List.of(), prepared);
      }
      }
    }

    private Step sql(String sql, List<Value> values, boolean prepared) {
      final Action action = side -> execute(side.connection, sql, values, prepared);
      final String text = values.isEmpty() ? sql : sql + (prepared ? " with " : " literal ")
          + values.stream().map(Value::literal).toList();
      return new Step(text, action, action, true);
    }

    /**
     * A MERGE of one to three source rows, half of them rows of the table: either an upsert
     * (SET reads only the source: each shard's own upsert) or row by row (SET reads the row).
     * MariaDB has no MERGE: its oracle updates each source row's key, and inserts where
     * nothing was updated.
     */
    private Step merge(List<Long> present) {
      final int count = 1 + random.nextInt(3);
      final Set<Long> keys = new LinkedHashSet<>();
      while (keys.size() < count) {
        keys.add(random.nextBoolean() ? presentKey(present) : newKey(present, key()));
      }
      final List<List<Value>> source = new ArrayList<>();
      final StringJoiner rows = new StringJoiner(", ");
      for (long key : keys) {
        final List<Value> row = List.of(Value.of(key), status(),
            Value.of(Integer.valueOf(random.nextInt(9))));
        source.add(row);
        rows.add("(" + String.join(", ", row.stream().map(Value::cast).toList()) + ")");
      }
      final boolean upsert = random.nextBoolean();
      final String set = upsert ? "STATUS = m.S, GRP = 3" : "V = ITEMS.V + m.D, STATUS = m.S";
      final String merge = "MERGE INTO ITEMS USING (VALUES " + rows + ") AS m (I, S, D)"
          + " ON ITEMS.ID = m.I WHEN MATCHED THEN UPDATE SET " + set
          + " WHEN NOT MATCHED THEN INSERT (" + COLUMNS + ") VALUES (m.I, 1, m.S, m.D, 0)";
      final Action action = side -> execute(side.connection, merge, List.of(), false);
      if (backend != Backend.MARIADB) {
        return new Step(merge, action, action, true);
      }
      final Action emulated = side -> {
        int changed = 0;
        for (List<Value> row : source) {
          final String update = "UPDATE ITEMS SET " + (upsert ? "STATUS = ?, GRP = 3"
              : "V = V + " + row.get(2).literal() + ", STATUS = ?") + " WHERE ID = ?";
          final Outcome updated = execute(side.connection, update,
              List.of(row.get(1), row.get(0)), true);
          if (updated.failed()) {
            return updated;
          }
          if (updated.result().equals("count 0")) {
            final Outcome inserted = execute(side.connection, "INSERT INTO ITEMS (" + COLUMNS
                + ") VALUES (?, 1, ?, ?, 0)", List.of(row.get(0), row.get(1), row.get(2)), true);
            if (inserted.failed()) {
              return inserted;
            }
          }
          changed++;
        }
        return new Outcome("count " + changed, "");
      };
      return new Step(merge, action, emulated, true);
    }

    private Step savepointStep() {
      final int choice = random.nextInt(5);
      if (savepoints.isEmpty() || choice < 2) {
        return setSavepoint();
      }
      final String name = savepoints.get(random.nextInt(savepoints.size()));
      return choice < 4 ? rollbackTo(name) : release(name);
    }

    private Step setSavepoint() {
      final String name = "sp" + ++savepointNames;
      final boolean named = random.nextBoolean();
      final Action action = side -> {
        side.savepoints.put(name, named ? side.connection.setSavepoint(name)
            : side.connection.setSavepoint());
        return Outcome.OK;
      };
      return new Step((named ? "setSavepoint(\"" : "setSavepoint() as ") + name
          + (named ? "\")" : ""), action, action, true);
    }

    private Step rollbackTo(String name) {
      final Action action = side -> {
        side.connection.rollback(side.savepoints.get(name));
        return Outcome.OK;
      };
      return new Step("rollback(" + name + ")", action, action, false);
    }

    private Step release(String name) {
      final Action action = side -> {
        side.connection.releaseSavepoint(side.savepoints.get(name));
        return Outcome.OK;
      };
      return new Step("releaseSavepoint(" + name + ")", action, action, true);
    }

    /** After a failure: back to a savepoint set before it, or the whole transaction. */
    private Step recovery() {
      if (!savepoints.isEmpty() && random.nextInt(3) > 0) {
        return rollbackTo(savepoints.get(random.nextInt(savepoints.size())));
      }
      return rollbackOrFailedCommit();
    }

    private Step commit() {
      final Action action = side -> {
        side.connection.commit();
        return Outcome.OK;
      };
      return new Step("commit()", action, action, false);
    }

    /** A rollback, or (while aborted) sometimes a commit, which rolls back and fails. */
    private Step rollbackOrFailedCommit() {
      final Action rollback = side -> {
        side.connection.rollback();
        return Outcome.OK;
      };
      if (aborted && random.nextBoolean()) {
        return new Step("commit() of the aborted transaction", side -> {
          side.connection.commit();
          return Outcome.OK;
        }, side -> {
          side.connection.rollback();
          return new Outcome("fails, class 25", "rolled back by the test's rule");
        }, false);
      }
      return new Step("rollback()", rollback, rollback, false);
    }

    /** Runs a step on both sides, compares, and follows what it did to the transaction. */
    private void step(Step step) throws SQLException {
      final Outcome got = run(step.shardSet(), shardSet);
      final Outcome expected = aborted && step.refusedWhenAborted()
          ? new Outcome("fails, class 25", "aborted by the test's rule")
          : run(step.oracle() == null ? step.shardSet() : step.oracle(), oracle);
      log.add(step.text() + "\n      ShardSet: " + got + "\n      expected: " + expected);
      if (!got.result().equals(expected.result())) {
        fail(report("step " + log.size() + " differs"));
      }
      if (aborted && step.refusedWhenAborted() && !got.detail().startsWith(ABORTED)) {
        fail(report("step " + log.size() + " did not fail with " + ABORTED));
      }
      follow(step.text(), got);
    }

    private Outcome run(Action action, Side side) {
      try {
        return action.run(side);
      } catch (SQLException e) {
        return Outcome.failed(e);
      }
    }

    /** Keeps the test's view of the transaction (aborted, savepoints) as the step left it. */
    private void follow(String text, Outcome outcome) {
      if (text.startsWith("commit()") || text.equals("rollback()")) {
        aborted = false;
        savepoints.clear();
        shardSet.savepoints.clear();
        oracle.savepoints.clear();
      } else if (text.startsWith("rollback(sp")) {
        final String name = text.substring("rollback(".length(), text.length() - 1);
        savepoints.subList(savepoints.indexOf(name) + 1, savepoints.size()).clear();
        aborted = false;
      } else if (outcome.failed()) {
        aborted = true;
      } else if (text.startsWith("setSavepoint")) {
        savepoints.add("sp" + savepointNames);
      } else if (text.startsWith("releaseSavepoint(")) {
        final String name = text.substring("releaseSavepoint(".length(), text.length() - 1);
        savepoints.subList(savepoints.indexOf(name), savepoints.size()).clear();
      }
    }

    /** The table through ShardSet, and on the shards, equals the oracle's after the end. */
    private void checkTable(Connection observer, List<Connection> shards) throws SQLException {
      final String all = "SELECT " + COLUMNS + " FROM ITEMS";
      final List<String> expected = sorted(ShardFixture.rows(oracle.connection, all));
      assertEquals(expected, sorted(ShardFixture.rows(observer, all)),
          () -> report("the committed table read through ShardSet differs"));
      final List<String> placed = new ArrayList<>();
      for (int shard = 0; shard < shards.size(); shard++) {
        for (String row : ShardFixture.rows(shards.get(shard), all)) {
          final long id = Long.parseLong(row.substring(0, row.indexOf(',')));
          if (HashedItems.shardOf(id) != shard) {
            fail(report("row " + row + " is on shard s" + shard + ", its key hashes to s"
                + HashedItems.shardOf(id)));
          }
          placed.add(row);
        }
      }
      assertEquals(expected, sorted(placed),
          () -> report("the shards' rows differ from the unsharded table"));
    }

    private String report(String what) {
      return what + " on " + backend + ", seed " + seed + " (-Dshardset.transactions.seed="
          + seed + " replays it):\n  " + String.join("\n  ", numbered());
    }

    private List<String> numbered() {
      final List<String> lines = new ArrayList<>();
      for (int i = 0; i < log.size(); i++) {
        lines.add(i + ". " + log.get(i));
      }
      return lines;
    }
  }
}
