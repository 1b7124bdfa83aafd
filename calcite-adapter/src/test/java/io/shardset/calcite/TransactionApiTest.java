package io.shardset.calcite;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.session.SessionWrite;
import io.shardset.session.ShardSession;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;
import io.shardset.transaction.ShardTransaction;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

import org.apache.commons.dbcp2.BasicDataSource;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDBC transaction API of {@code jdbc:shardset:} connections: autocommit, commit and
 * rollback of what the connection's statements opened, read-only connections whose writes are
 * refused, the isolation levels, and pooling by commons-dbcp2. Writes go through the
 * session's {@link ShardSession#beginWrite} as the write statements do, and put a row on one
 * shard through the transaction's connection to it; queries through ShardSet show what the
 * transaction sees, and other connections what committed.
 */
class TransactionApiTest {
  private static final String COUNT = "SELECT COUNT(*) FROM T";

  private ShardFixture fixture;
  private String model;
  private Connection connection;

  @BeforeEach void open() throws SQLException {
    fixture = ShardFixture.h2(2, "CREATE TABLE T (K BIGINT PRIMARY KEY, C INTEGER)");
    model = fixture.model("\"tables\": [\n"
        + "  {\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]}]");
    connection = Connector.SHARDSET.open(model);
  }

  @AfterEach void close() throws SQLException {
    connection.close();
    fixture.close();
  }

  private static ShardSession session(Connection client) throws SQLException {
    return ShardSetRuntime.get().sessions().of(root(client).getQueryProvider());
  }

  /** Starts a write to T as a statement of {@code client} does. */
  private static SessionWrite begin(Connection client) throws SQLException {
    final ShardTable table = ShardFixture.schema(client).table("T");
    return session(client).beginWrite(table.coordinator(), "S.T",
        ShardSession.WriteKind.INSERT);
  }

  /** Writes one row of T, on shard 0, in the statement's transaction, and completes it. */
  private static ShardTransaction write(Connection client, long key) throws SQLException {
    final ShardTable table = ShardFixture.schema(client).table("T");
    try (SessionWrite write = begin(client)) {
      final Connection shard = write.transaction().connection(table.site(0).endpoint());
      try (PreparedStatement insert = shard.prepareStatement("INSERT INTO T VALUES (?, 1)")) {
        insert.setLong(1, key);
        insert.executeUpdate();
      }
      write.complete();
      return write.transaction();
    }
  }

  private long count() throws SQLException {
    return Long.parseLong(ShardFixture.rows(connection, COUNT).get(0));
  }

  @Test void autoCommitIsOnAndTransactionCallsWithNothingWrittenDoNotThrow()
      throws SQLException {
    assertTrue(connection.getAutoCommit());
    assertFalse(connection.isReadOnly());
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
    connection.commit();
    connection.rollback();
    connection.setAutoCommit(false);
    assertFalse(connection.getAutoCommit());
    connection.commit();
    connection.rollback();
    connection.setAutoCommit(true);
    assertTrue(connection.getAutoCommit());
    assertFalse(session(connection).hasOpenTransaction());
  }

  @Test void inAutoCommitModeEachWriteCommitsItself() throws SQLException {
    final ShardTransaction transaction = write(connection, 1);
    assertEquals(ShardTransaction.State.COMMITTED, transaction.state());
    assertFalse(session(connection).hasOpenTransaction());
    assertEquals(1, count());
  }

  @Test void writesWithAutoCommitOffShareOneTransactionUntilCommit() throws SQLException {
    connection.setAutoCommit(false);
    final ShardTransaction first = write(connection, 1);
    final ShardTransaction second = write(connection, 2);
    assertSame(first, second);
    assertTrue(session(connection).hasOpenTransaction());
    // The transaction's queries see its rows; other connections see what committed.
    assertEquals(2, count());
    try (Connection other = Connector.SHARDSET.open(model)) {
      assertEquals(List.of("0"), ShardFixture.rows(other, COUNT));
    }
    connection.commit();
    assertEquals(ShardTransaction.State.COMMITTED, first.state());
    assertFalse(session(connection).hasOpenTransaction());
    assertEquals(2, count());
  }

  @Test void rollbackUndoesTheWrites() throws SQLException {
    connection.setAutoCommit(false);
    final ShardTransaction transaction = write(connection, 1);
    connection.rollback();
    assertEquals(ShardTransaction.State.ROLLED_BACK, transaction.state());
    assertEquals(0, count());
    assertFalse(connection.getAutoCommit());
  }

  @Test void turningAutoCommitOnCommitsTheOpenTransaction() throws SQLException {
    connection.setAutoCommit(false);
    final ShardTransaction transaction = write(connection, 1);
    connection.setAutoCommit(true);
    assertEquals(ShardTransaction.State.COMMITTED, transaction.state());
    assertTrue(connection.getAutoCommit());
    assertEquals(1, count());
  }

  @Test void closingTheConnectionRollsBackItsOpenTransaction() throws SQLException {
    connection.setAutoCommit(false);
    final ShardTransaction transaction = write(connection, 1);
    connection.close();
    assertEquals(ShardTransaction.State.ROLLED_BACK, transaction.state());
    assertFalse(session(connection).hasOpenTransaction());
    connection = Connector.SHARDSET.open(model);
    assertEquals(0, count());
  }

  @Test void aFailedCommitIsAnSqlExceptionAndRollsBack() throws SQLException {
    connection.setAutoCommit(false);
    final ShardTable table = ShardFixture.schema(connection).table("T");
    final ShardTransaction transaction;
    try (SessionWrite write = begin(connection)) {
      // The shard connection breaks before the commit.
      write.transaction().connection(table.site(0).endpoint()).close();
      write.complete();
      transaction = write.transaction();
    }
    final SQLException e = assertThrows(SQLException.class, connection::commit);
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    assertEquals(ShardTransaction.State.ROLLED_BACK, transaction.state());
    assertFalse(session(connection).hasOpenTransaction());
    connection.commit();
  }

  @Test void aReadOnlyConnectionsWritesAreRefusedBeforeTheyReachAShard()
      throws SQLException {
    connection.setReadOnly(true);
    assertTrue(connection.isReadOnly());
    final SQLException refused = assertThrows(SQLException.class, () -> begin(connection));
    assertEquals("connection is read-only: cannot write to table S.T", refused.getMessage());
    assertEquals("25006", refused.getSQLState());
    final SQLException insert = assertThrows(SQLException.class,
        () -> connection.createStatement().executeUpdate("INSERT INTO T VALUES (2, 1)"));
    assertEquals("25006", insert.getSQLState(), insert.getMessage());
    assertTrue(insert.getMessage().contains(
        "connection is read-only: cannot write to table S.T"), insert.getMessage());
    connection.setAutoCommit(false);
    assertThrows(SQLException.class, () -> begin(connection));
    assertFalse(session(connection).hasOpenTransaction());
    assertEquals(0, count());
    // The query began a (read-only) transaction: read-only cannot change until it ends.
    assertEquals("25001", assertThrows(SQLException.class,
        () -> connection.setReadOnly(false)).getSQLState());
    connection.rollback();
    connection.setReadOnly(false);
    write(connection, 1);
    connection.commit();
    assertEquals(1, count());
  }

  @Test void readOnlyCannotChangeWhileATransactionIsOpen() throws SQLException {
    connection.setAutoCommit(false);
    write(connection, 1);
    final SQLException e = assertThrows(SQLException.class, () -> connection.setReadOnly(true));
    assertEquals("cannot make the connection read-only while its transaction is open; commit"
        + " or roll back first", e.getMessage());
    assertEquals("25001", e.getSQLState());
    assertFalse(connection.isReadOnly());
    assertTrue(session(connection).hasOpenTransaction());
    // Setting what is already set changes nothing, and is allowed.
    connection.setReadOnly(false);
    connection.commit();
    connection.setReadOnly(true);
    assertTrue(connection.isReadOnly());
  }

  @Test void isolationLevelsAreGrantedAndFixedForTheTransaction() throws SQLException {
    for (int level : new int[] {Connection.TRANSACTION_REPEATABLE_READ,
        Connection.TRANSACTION_SERIALIZABLE, Connection.TRANSACTION_READ_COMMITTED}) {
      connection.setTransactionIsolation(level);
      assertEquals(level, connection.getTransactionIsolation());
    }
    // JDBC lets a driver give a stricter level than the one asked for.
    connection.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
    // What the metadata advertised (Avatica's default): sqlline asks for it.
    connection.setTransactionIsolation(Connection.TRANSACTION_NONE);
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
    final SQLException unknown = assertThrows(SQLException.class,
        () -> connection.setTransactionIsolation(3));
    assertEquals("transaction isolation 3 is not a level a connection can have; ShardSet"
        + " provides READ_COMMITTED, REPEATABLE_READ and SERIALIZABLE", unknown.getMessage());
    assertEquals("HY024", unknown.getSQLState());
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
    // Within a transaction that reached a shard the level is fixed; the connection goes on.
    connection.setAutoCommit(false);
    write(connection, 1);
    final SQLException during = assertThrows(SQLException.class,
        () -> connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE));
    assertEquals("25001", during.getSQLState());
    assertEquals(Connection.TRANSACTION_READ_COMMITTED, connection.getTransactionIsolation());
    assertEquals(1, count());
    connection.commit();
    connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
    assertEquals(Connection.TRANSACTION_SERIALIZABLE, connection.getTransactionIsolation());
  }

  @Test void calciteConnectionsWriteInAutoCommitModeWhateverTheySay() throws SQLException {
    try (Connection calcite = Connector.CALCITE.open(model)) {
      calcite.setAutoCommit(false);
      final ShardTransaction transaction = write(calcite, 1);
      assertEquals(ShardTransaction.State.COMMITTED, transaction.state());
      assertFalse(session(calcite).hasOpenTransaction());
    }
    assertEquals(1, count());
  }

  @Test void commonsDbcpPoolsConnectionsAndUndoesWhatABorrowerLeftOpen() throws Exception {
    try (BasicDataSource pool = new BasicDataSource()) {
      pool.setDriverClassName(ShardSetDriver.class.getName());
      pool.setUrl(ShardSetDriver.CONNECT_STRING_PREFIX);
      pool.addConnectionProperty("model", "inline:" + model);
      pool.setMaxTotal(1);
      pool.setDefaultReadOnly(false);
      pool.setDefaultTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      pool.setTestOnBorrow(true);
      @Nullable Connection physical = null;
      for (int borrow = 0; borrow < 4; borrow++) {
        try (Connection pooled = pool.getConnection()) {
          final Connection inner = pooled.unwrap(CalciteConnection.class);
          if (physical == null) {
            physical = inner;
          }
          assertSame(physical, inner, "borrow " + borrow);
          assertTrue(pooled.getAutoCommit(), "borrow " + borrow);
          assertFalse(pooled.isReadOnly(), "borrow " + borrow);
          assertEquals(List.of(String.valueOf(borrow)), ShardFixture.rows(pooled, COUNT));
          // Each borrower commits one row and leaves another uncommitted, and read-only on.
          write(inner, 2L * borrow);
          pooled.setAutoCommit(false);
          write(inner, 2L * borrow + 1);
          pooled.setReadOnly(false);
        }
        try (Connection pooled = pool.getConnection()) {
          pooled.setReadOnly(true);
        }
      }
      assertEquals(1, pool.getNumIdle());
    }
    assertEquals(4, count());
  }

  /** The context of a statement of {@code client}, as a write statement gets it. */
  private static DataContext root(Connection client) throws SQLException {
    final QueryProvider provider = client.unwrap(QueryProvider.class);
    return new DataContext() {
      @Override public SchemaPlus getRootSchema() {
        throw new UnsupportedOperationException();
      }

      @Override public JavaTypeFactory getTypeFactory() {
        throw new UnsupportedOperationException();
      }

      @Override public QueryProvider getQueryProvider() {
        return provider;
      }

      @Override public @Nullable Object get(String name) {
        return null;
      }
    };
  }
}
