package io.shardset.session;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.shardset.testing.ShardFixture.sorted;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a transaction of a {@code jdbc:shardset:} connection does, as the frameworks above it
 * rely on, on four shards of each backend: its reads see its writes; row-by-row changes
 * (a computed SET, a shard key that moves the row, MERGE) run inside it; a failed statement
 * aborts it and nothing of it commits; savepoints undo part of it; isolation levels apply to
 * each shard's branch. Each case checks the rows on the shards themselves.
 */
class TransactionSemanticsTest {
  private static final String DDL = "CREATE TABLE ITEMS (ID BIGINT PRIMARY KEY,"
      + " GRP BIGINT NOT NULL, STATUS VARCHAR(10), TOTAL DECIMAL(12, 2) NOT NULL)";

  private ShardFixture fixture;
  private String model;

  private void open(Backend backend) throws SQLException {
    fixture = ShardFixture.create(backend, HashedItems.SHARDS, DDL);
    model = HashedItems.model(fixture, "", "");
  }

  @AfterEach void close() throws SQLException {
    if (fixture != null) {
      fixture.close();
    }
  }

  private Connection connect() throws SQLException {
    return Connector.SHARDSET.open(model);
  }

  private static int shardOf(long id) {
    return HashedItems.shardOf(id);
  }

  private static long elsewhere(long id, long from) {
    return HashedItems.onOtherShard(id, from);
  }

  /** Every row of ITEMS on every shard, as {@code s<n>: ID, GRP, STATUS, TOTAL}. */
  private List<String> onShards() throws SQLException {
    final List<String> placed = new ArrayList<>();
    for (String shard : fixture.shards().names()) {
      try (Connection c = fixture.shards().endpoint(shard).connect()) {
        for (String row : ShardFixture.rows(c,
            "SELECT ID, GRP, STATUS, TOTAL FROM ITEMS ORDER BY ID")) {
          placed.add(shard + ": " + row);
        }
      }
    }
    return sorted(placed);
  }

  private static String row(long id, long grp, String status, String total) {
    return "s" + shardOf(id) + ": " + id + ", " + grp + ", " + status + ", " + total;
  }

  private void committed(String... inserts) throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      for (String insert : inserts) {
        s.executeUpdate(insert);
      }
    }
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    return ShardFixture.rows(c, sql);
  }

  private static void expectState(String state, Executable run) {
    final SQLException e = assertThrows(SQLException.class, run::run);
    assertEquals(state, e.getSQLState(), e.getMessage());
  }

  /** A call that may throw an SQLException. */
  @FunctionalInterface
  private interface Executable {
    void run() throws SQLException;
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aTransactionReadsItsOwnWritesAndOthersSeeThemAtCommit(Backend backend)
      throws SQLException {
    open(backend);
    try (Connection c = connect(); Connection other = connect();
         Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(2, s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00),"
          + " (" + elsewhere(1, 2) + ", 1, 'NEW', 5.00)"));
      assertEquals(List.of("1, NEW, 10"),
          rows(c, "SELECT ID, STATUS, TOTAL FROM ITEMS WHERE ID = 1"));
      assertEquals(List.of("2, 15"),
          rows(c, "SELECT COUNT(*), SUM(TOTAL) FROM ITEMS WHERE GRP = 1"));
      try (PreparedStatement p = c.prepareStatement("SELECT STATUS FROM ITEMS WHERE ID = ?")) {
        p.setLong(1, 1);
        assertEquals(List.of("NEW"), ShardFixture.rows(p.executeQuery()));
      }
      assertEquals(List.of("0"), rows(other, "SELECT COUNT(*) FROM ITEMS"));
      c.commit();
      assertEquals(List.of("2"), rows(other, "SELECT COUNT(*) FROM ITEMS"));
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void rowByRowChangesAfterAnInsertChangeTheInsertedRow(Backend backend) throws SQLException {
    open(backend);
    final long moved = elsewhere(1, 100);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)");
      assertEquals(1, s.executeUpdate("UPDATE ITEMS SET TOTAL = TOTAL - 0.01 WHERE ID = 1"));
      assertEquals(1, s.executeUpdate("UPDATE ITEMS SET ID = " + moved + " WHERE ID = 1"));
      c.commit();
    }
    assertEquals(List.of(row(moved, 1, "NEW", "9.99")), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aDeletedRowStaysDeletedWhenItsKeyIsUpdated(Backend backend) throws SQLException {
    open(backend);
    committed("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)");
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("DELETE FROM ITEMS WHERE ID = 1"));
      assertEquals(0, s.executeUpdate("UPDATE ITEMS SET ID = " + elsewhere(1, 100)
          + " WHERE ID = 1"));
      c.commit();
    }
    assertEquals(List.of(), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aMovedRowKeepsTheTransactionsEarlierChange(Backend backend) throws SQLException {
    open(backend);
    final long moved = elsewhere(1, 100);
    committed("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)");
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("UPDATE ITEMS SET STATUS = 'PAID' WHERE ID = 1"));
      assertEquals(1, s.executeUpdate("UPDATE ITEMS SET ID = " + moved + " WHERE ID = 1"));
      c.commit();
    }
    assertEquals(List.of(row(moved, 1, "PAID", "10")), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void mergeAfterAnInsertOfTheSameKeyUpdatesIt(Backend backend) throws SQLException {
    open(backend);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)");
      assertEquals(1, s.executeUpdate("MERGE INTO ITEMS USING (VALUES (CAST(1 AS BIGINT),"
          + " CAST('PAID' AS VARCHAR(10)))) AS m (I, S) ON ITEMS.ID = m.I"
          + " WHEN MATCHED THEN UPDATE SET STATUS = m.S"
          + " WHEN NOT MATCHED THEN INSERT (ID, GRP, STATUS, TOTAL) VALUES (m.I, 1, m.S, 0)"));
      c.commit();
    }
    assertEquals(List.of(row(1, 1, "PAID", "10")), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void twoIncrementsOfOneRowInOneTransactionBothCount(Backend backend) throws SQLException {
    open(backend);
    committed("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)");
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      assertEquals(1, s.executeUpdate("UPDATE ITEMS SET TOTAL = TOTAL + 1 WHERE ID = 1"));
      assertEquals(1, s.executeUpdate("UPDATE ITEMS SET TOTAL = TOTAL + 1 WHERE GRP = 1"));
      c.commit();
    }
    assertEquals(List.of(row(1, 1, "NEW", "12")), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aFailedStatementAbortsTheTransactionAndNothingOfItCommits(Backend backend)
      throws SQLException {
    open(backend);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)");
      final SQLException duplicate = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)"));
      assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
      // Every later statement fails until the transaction ends, reads too.
      expectState("25P02", () -> s.executeUpdate(
          "INSERT INTO ITEMS VALUES (3, 1, 'NEW', 1.00)"));
      expectState("25P02", () -> rows(c, "SELECT COUNT(*) FROM ITEMS"));
      final SQLException commit = assertThrows(SQLException.class, c::commit);
      assertEquals("25P02", commit.getSQLState());
      assertTrue(commit.getMessage().startsWith("the transaction was rolled back, not"
          + " committed: a statement of it failed"), commit.getMessage());
      assertEquals(List.of(), onShards());
      // The connection goes on with a new transaction.
      s.executeUpdate("INSERT INTO ITEMS VALUES (4, 1, 'NEW', 1.00)");
      c.commit();
    }
    assertEquals(List.of(row(4, 1, "NEW", "1")), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void savepointsUndoPartOfATransaction(Backend backend) throws SQLException {
    open(backend);
    final long two = elsewhere(1, 2);
    final long three = elsewhere(two, two + 1);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      // Set before any shard is reached: it applies to the shards enlisted after it.
      final Savepoint first = c.setSavepoint("first");
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 1.00)");
      final Savepoint second = c.setSavepoint();
      s.executeUpdate("INSERT INTO ITEMS VALUES (" + two + ", 1, 'NEW', 2.00)");
      s.executeUpdate("UPDATE ITEMS SET STATUS = 'PAID' WHERE ID = 1");
      c.rollback(second);
      assertEquals(List.of("1, NEW"), rows(c, "SELECT ID, STATUS FROM ITEMS"));
      // A failed statement after a savepoint: rolling back to it lets the transaction go on.
      final Savepoint third = c.setSavepoint("third");
      assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 1.00)"));
      expectState("25P02", () -> rows(c, "SELECT COUNT(*) FROM ITEMS"));
      c.rollback(third);
      s.executeUpdate("INSERT INTO ITEMS VALUES (" + three + ", 1, 'NEW', 3.00)");
      c.releaseSavepoint(third);
      expectState("3B001", () -> c.rollback(third));
      c.commit();
      expectState("3B001", () -> c.rollback(first));
    }
    assertEquals(sorted(List.of(row(1, 1, "NEW", "1"), row(three, 1, "NEW", "3"))),
        onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void savepointStatementsDoWhatTheCallsDo(Backend backend) throws SQLException {
    open(backend);
    final long two = elsewhere(1, 2);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 1.00)");
      assertEquals(0, s.executeUpdate("SAVEPOINT a"));
      s.executeUpdate("INSERT INTO ITEMS VALUES (" + two + ", 1, 'NEW', 2.00)");
      assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 1.00)"));
      assertEquals(0, s.executeUpdate("rollback to savepoint A"));
      assertEquals(List.of("1"), rows(c, "SELECT COUNT(*) FROM ITEMS"));
      assertEquals(0, s.executeUpdate("SAVEPOINT b"));
      assertEquals(0, s.executeUpdate("RELEASE SAVEPOINT b"));
      final SQLException gone = assertThrows(SQLException.class,
          () -> s.executeUpdate("ROLLBACK TO b"));
      assertEquals("3B001", gone.getSQLState());
      assertEquals("savepoint \"B\" does not exist in this transaction", gone.getMessage());
      c.commit();
    }
    assertEquals(List.of(row(1, 1, "NEW", "1")), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void rollingBackToTheFirstSavepointUndoesEveryShard(Backend backend) throws SQLException {
    open(backend);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      final Savepoint start = c.setSavepoint();
      s.executeUpdate("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 1.00), (2, 1, 'NEW', 1.00),"
          + " (3, 1, 'NEW', 1.00), (4, 1, 'NEW', 1.00)");
      c.rollback(start);
      assertEquals(List.of("0"), rows(c, "SELECT COUNT(*) FROM ITEMS"));
      s.executeUpdate("INSERT INTO ITEMS VALUES (5, 1, 'NEW', 1.00)");
      c.commit();
    }
    assertEquals(List.of(row(5, 1, "NEW", "1")), onShards());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void repeatableReadReadsEachShardAsOfItsFirstRead(Backend backend) throws SQLException {
    open(backend);
    committed("INSERT INTO ITEMS VALUES (1, 1, 'NEW', 10.00)");
    try (Connection c = connect(); Connection other = connect();
         Statement s = other.createStatement()) {
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      c.setAutoCommit(false);
      assertEquals(List.of("10"), rows(c, "SELECT TOTAL FROM ITEMS WHERE ID = 1"));
      s.executeUpdate("UPDATE ITEMS SET TOTAL = 20 WHERE ID = 1");
      assertEquals(List.of("10"), rows(c, "SELECT TOTAL FROM ITEMS WHERE ID = 1"));
      c.commit();
      assertEquals(List.of("20"), rows(c, "SELECT TOTAL FROM ITEMS WHERE ID = 1"));
      c.commit();
      // READ COMMITTED sees each committed change at its next statement.
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      assertEquals(List.of("20"), rows(c, "SELECT TOTAL FROM ITEMS WHERE ID = 1"));
      s.executeUpdate("UPDATE ITEMS SET TOTAL = 30 WHERE ID = 1");
      assertEquals(List.of("30"), rows(c, "SELECT TOTAL FROM ITEMS WHERE ID = 1"));
      c.rollback();
    }
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void aSelfJoinReadsOneShardTwiceThroughTheTransaction(Backend backend) throws SQLException {
    open(backend);
    try (Connection c = connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      final StringBuilder values = new StringBuilder();
      for (int id = 1; id <= 200; id++) {
        values.append(id == 1 ? "" : ", ").append("(").append(id).append(", ")
            .append(id % 7).append(", 'NEW', 1.00)");
      }
      s.executeUpdate("INSERT INTO ITEMS VALUES " + values);
      // GRP is no shard key: the join runs above the shards, two scans per shard at once.
      assertEquals(List.of(String.valueOf(countPairs(200, 7))), rows(c, "SELECT COUNT(*)"
          + " FROM ITEMS a JOIN ITEMS b ON a.GRP = b.GRP"));
      c.commit();
    }
  }

  private static long countPairs(int rows, int groups) {
    long pairs = 0;
    for (int g = 0; g < groups; g++) {
      long n = 0;
      for (int id = 1; id <= rows; id++) {
        if (id % groups == g) {
          n++;
        }
      }
      pairs += n * n;
    }
    return pairs;
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES", "MARIADB"})
  void theIsolationLevelCannotChangeInsideATransaction(Backend backend) throws SQLException {
    open(backend);
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      rows(c, "SELECT COUNT(*) FROM ITEMS");
      expectState("25001",
          () -> c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation());
      assertFalse(c.isClosed());
      c.rollback();
      c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
      assertEquals(List.of("0"), rows(c, "SELECT COUNT(*) FROM ITEMS"));
      c.commit();
    }
  }
}
