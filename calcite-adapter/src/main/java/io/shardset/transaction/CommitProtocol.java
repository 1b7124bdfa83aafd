package io.shardset.transaction;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How one kind of database takes part in a transaction: its own statements for two-phase
 * commit (PostgreSQL's prepared transactions, MariaDB's XA, H2's in-doubt transactions) and
 * for listing what it holds prepared.
 *
 * <p>Every statement names a transaction branch by a branch id that {@link GlobalId} makes of
 * letters, digits and underscores only (on MariaDB followed by a dot and the session's id),
 * so it needs no escaping in a string literal or a quoted identifier.
 */
enum CommitProtocol {
  /** PREPARE TRANSACTION, COMMIT PREPARED, ROLLBACK PREPARED; pg_prepared_xacts. */
  POSTGRESQL("PostgreSQL") {
    /**
     * Commits, unless a statement failed in the branch: PostgreSQL's COMMIT then rolls back,
     * and its driver reports success.
     */
    @Override void commitOnePhase(Connection connection, String branch) throws SQLException {
      checkNotFailed(connection);
      connection.commit();
    }

    @Override void prepare(Connection connection, String branch, String shard)
        throws SQLException {
      checkNotFailed(connection);
      try {
        execute(connection, "PREPARE TRANSACTION '" + branch + "'");
      } catch (SQLException e) {
        throw disabledPreparedTransactions(e, shard);
      }
    }

    @Override void commitPrepared(Connection connection, String branch) throws SQLException {
      // Not inside a transaction block: the driver would open one with autocommit off.
      connection.setAutoCommit(true);
      execute(connection, "COMMIT PREPARED '" + branch + "'");
    }

    @Override void rollbackPrepared(Connection connection, String branch) throws SQLException {
      connection.setAutoCommit(true);
      execute(connection, "ROLLBACK PREPARED '" + branch + "'");
    }

    @Override List<String> prepared(Connection connection) throws SQLException {
      return strings(connection, "SELECT gid FROM pg_prepared_xacts"
          + " WHERE database = current_database()");
    }

    @Override boolean isUnknownBranch(SQLException e) {
      // undefined_object: "prepared transaction with identifier ... does not exist"
      return "42704".equals(e.getSQLState());
    }

    @Override long sessionId(Connection connection, @Nullable String branch)
        throws SQLException {
      // Known from the connection's start-up; no round trip.
      return connection.unwrap(PGConnection.class).getBackendPID();
    }

    @Override List<long[]> lockWaits(Connection monitor) throws SQLException {
      return pairs(monitor, "SELECT l.pid, b.pid FROM pg_locks l"
          + " CROSS JOIN LATERAL unnest(pg_blocking_pids(l.pid)) AS b(pid)"
          + " WHERE NOT l.granted");
    }

    @Override boolean cancel(Connection monitor, long session) throws SQLException {
      try (PreparedStatement statement =
               monitor.prepareStatement("SELECT pg_cancel_backend(?)")) {
        statement.setInt(1, (int) session);
        try (ResultSet rows = statement.executeQuery()) {
          return rows.next() && rows.getBoolean(1);
        }
      }
    }
  },

  /**
   * XA: the branch starts before the first statement ({@code XA START} when the shard is
   * enlisted) and ends with {@code XA END} before it prepares or commits; a transaction of
   * one shard commits with {@code XA COMMIT ... ONE PHASE}.
   *
   * <p>A branch's XID names the session that runs it: its gtrid is ShardSet's branch id, its
   * bqual the server's id of that session ({@code CONNECTION_ID()}); ShardSet writes such an
   * XID as {@code <branch id>.<session id>}. Recovery needs the session: when a client dies
   * with a prepared branch, the server first hands the XID over for any session to finish,
   * and only a moment later lets InnoDB's transaction go from the dead session. An
   * {@code XA COMMIT} or {@code XA ROLLBACK} that comes in between reports success, forgets
   * the XID and leaves InnoDB's transaction prepared, with its locks, listed by no
   * {@code XA RECOVER} until the server restarts (seen on MariaDB 10.11). The server has
   * done both once the session is gone from its process list, so recovery waits for that
   * ({@link #isHeld}).
   */
  MARIADB("MariaDB") {
    @Override String enlist(Connection connection, String branch) throws SQLException {
      final String xid = branch + SESSION + connectionId(connection);
      execute(connection, "XA START " + xid(xid));
      return xid;
    }

    @Override void commitOnePhase(Connection connection, String branch) throws SQLException {
      execute(connection, "XA END " + xid(branch));
      execute(connection, "XA COMMIT " + xid(branch) + " ONE PHASE");
    }

    @Override void rollback(Connection connection, String branch) throws SQLException {
      try {
        execute(connection, "XA END " + xid(branch));
      } catch (SQLException e) {
        // Ended already (a failed prepare ends it first); the rollback below decides.
      }
      execute(connection, "XA ROLLBACK " + xid(branch));
    }

    @Override void prepare(Connection connection, String branch, String shard)
        throws SQLException {
      execute(connection, "XA END " + xid(branch));
      execute(connection, "XA PREPARE " + xid(branch));
    }

    @Override void commitPrepared(Connection connection, String branch) throws SQLException {
      execute(connection, "XA COMMIT " + xid(branch));
    }

    @Override void rollbackPrepared(Connection connection, String branch) throws SQLException {
      execute(connection, "XA ROLLBACK " + xid(branch));
    }

    @Override List<String> prepared(Connection connection) throws SQLException {
      // Server-wide, every database's: the caller keeps the ids it made.
      final List<String> branches = new ArrayList<>();
      try (Statement statement = connection.createStatement();
           ResultSet rows = statement.executeQuery("XA RECOVER")) {
        while (rows.next()) {
          final String data = rows.getString("data");
          final int gtrid = rows.getInt("gtrid_length");
          if (rows.getInt("formatID") == 1 && data != null && gtrid <= data.length()) {
            branches.add(gtrid == data.length() ? data
                : data.substring(0, gtrid) + SESSION + data.substring(gtrid));
          }
        }
      }
      return branches;
    }

    @Override boolean isHeld(Connection connection, String branch) throws SQLException {
      final int dot = branch.indexOf(SESSION);
      if (dot < 0) {
        // No session named (a branch of an older ShardSet): nothing to wait for.
        return false;
      }
      // Without the PROCESS privilege a user sees only its own sessions: the shard's user
      // of the coordinator that ran the branch must be the recovering one's, or have it.
      try (PreparedStatement statement = connection.prepareStatement(
          "SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ?")) {
        statement.setLong(1, Long.parseLong(branch.substring(dot + 1)));
        try (ResultSet rows = statement.executeQuery()) {
          return rows.next();
        }
      }
    }

    @Override boolean isUnknownBranch(SQLException e) {
      // XAER_NOTA: unknown XID
      return e.getErrorCode() == 1397;
    }

    @Override long sessionId(Connection connection, @Nullable String branch)
        throws SQLException {
      // The XID names the session already (see enlist).
      final int dot = branch == null ? -1 : branch.indexOf(SESSION);
      return dot < 0 ? MARIADB_SESSION_UNKNOWN : Long.parseLong(branch.substring(dot + 1));
    }

    @Override List<long[]> lockWaits(Connection monitor) throws SQLException {
      return pairs(monitor, "SELECT r.trx_mysql_thread_id, b.trx_mysql_thread_id"
          + " FROM information_schema.INNODB_LOCK_WAITS w"
          + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id"
          + " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id");
    }

    /** Interrupts the statement only: the transaction, and an XA branch, go on. */
    @Override boolean cancel(Connection monitor, long session) throws SQLException {
      execute(monitor, "KILL QUERY " + session);
      return true;
    }
  },

  /** PREPARE COMMIT, COMMIT TRANSACTION, ROLLBACK TRANSACTION; INFORMATION_SCHEMA.IN_DOUBT. */
  H2("H2") {
    @Override void prepare(Connection connection, String branch, String shard)
        throws SQLException {
      execute(connection, "PREPARE COMMIT \"" + branch + "\"");
    }

    @Override void commitPrepared(Connection connection, String branch) throws SQLException {
      execute(connection, "COMMIT TRANSACTION \"" + branch + "\"");
    }

    @Override void rollbackPrepared(Connection connection, String branch) throws SQLException {
      execute(connection, "ROLLBACK TRANSACTION \"" + branch + "\"");
    }

    @Override List<String> prepared(Connection connection) throws SQLException {
      return strings(connection,
          "SELECT TRANSACTION_NAME FROM INFORMATION_SCHEMA.IN_DOUBT");
    }

    @Override boolean isUnknownBranch(SQLException e) {
      // TRANSACTION_NOT_FOUND_1
      return e.getErrorCode() == 90129;
    }

    /**
     * The id of an embedded H2 session, from H2's own connection object, without a statement
     * (a statement per transaction would cost every write, and tests count what shards are
     * sent); -1 for a remote H2 session, whose id only a statement tells.
     */
    @Override long sessionId(Connection connection, @Nullable String branch)
        throws SQLException {
      try {
        final Connection h2 = connection.unwrap(Class.forName("org.h2.jdbc.JdbcConnection")
            .asSubclass(Connection.class));
        final Object session = h2.getClass().getMethod("getSession").invoke(h2);
        return session.getClass().getMethod("getId").invoke(session) instanceof Integer id
            ? id : -1;
      } catch (ReflectiveOperationException | RuntimeException e) {
        return -1;
      }
    }

    @Override List<long[]> lockWaits(Connection monitor) throws SQLException {
      return pairs(monitor, "SELECT SESSION_ID, BLOCKER_ID FROM INFORMATION_SCHEMA.SESSIONS"
          + " WHERE BLOCKER_ID IS NOT NULL");
    }

    // No cancel: H2 interrupts no lock wait but by its lock timeout (CANCEL_SESSION and
    // Statement.cancel() leave it waiting).
  },

  /** A database ShardSet knows no two-phase commit of: local commits only. */
  OTHER(null) {
    @Override boolean hasTwoPhaseCommit() {
      return false;
    }
  };

  /** A MariaDB session id that is not known. */
  private static final long MARIADB_SESSION_UNKNOWN = -1;

  /** What separates a MariaDB branch id from the session id in its XID's text. */
  static final String SESSION = ".";

  /** What PostgreSQL says when max_prepared_transactions is 0. */
  static final String PG_DISABLED = "prepared transactions are disabled";

  /** The product name the JDBC driver reports; null for {@link #OTHER}. */
  private final String product;

  CommitProtocol(String product) {
    this.product = product;
  }

  /** The backend of a connection, by the product name its driver reports. */
  static CommitProtocol of(Connection connection) throws SQLException {
    return of(connection.getMetaData().getDatabaseProductName());
  }

  /** The backend of a product name; {@link #OTHER} for one ShardSet does not know. */
  static CommitProtocol of(String productName) {
    final String name = productName == null ? "" : productName.trim();
    if (name.equalsIgnoreCase("MySQL")) {
      // The same XA statements; MariaDB's driver reports MySQL servers so.
      return MARIADB;
    }
    for (CommitProtocol backend : values()) {
      if (backend.product != null && backend.product.equalsIgnoreCase(name)) {
        return backend;
      }
    }
    return OTHER;
  }

  /** Whether the backend can prepare a transaction and commit it later. */
  boolean hasTwoPhaseCommit() {
    return true;
  }

  /**
   * Starts the branch on a connection just enlisted, before any statement runs on it.
   *
   * @return the id the branch goes by from now on: {@code branch}, or on MariaDB the XID
   *     that also names the session
   */
  String enlist(Connection connection, String branch) throws SQLException {
    return branch;
  }

  /** Commits the branch of a transaction that wrote to this shard only. */
  void commitOnePhase(Connection connection, String branch) throws SQLException {
    connection.commit();
  }

  /** Undoes a branch that is not prepared. */
  void rollback(Connection connection, String branch) throws SQLException {
    connection.rollback();
  }

  /**
   * Prepares the branch: from now on the shard keeps it, through a crash, until it is
   * committed or rolled back by id.
   *
   * @param shard the shard's name, for messages
   */
  void prepare(Connection connection, String branch, String shard) throws SQLException {
    throw new SQLException("no two-phase commit", "0A000");
  }

  /** Commits a prepared branch, from its own connection or any other. */
  void commitPrepared(Connection connection, String branch) throws SQLException {
    throw new SQLException("no two-phase commit", "0A000");
  }

  /** Rolls back a prepared branch, from its own connection or any other. */
  void rollbackPrepared(Connection connection, String branch) throws SQLException {
    throw new SQLException("no two-phase commit", "0A000");
  }

  /** The ids of the branches the shard holds prepared, of anyone. */
  List<String> prepared(Connection connection) throws SQLException {
    return List.of();
  }

  /**
   * Whether the prepared branch may still belong to the session that ran it (alive, or
   * ending), so that another session must not finish it yet.
   */
  boolean isHeld(Connection connection, String branch) throws SQLException {
    return false;
  }

  /**
   * The shard's id of the connection's session, as the shard's lists of lock waits name it;
   * -1 when the backend has none ShardSet reads.
   *
   * @param branch the branch id {@link #enlist} returned, or null
   */
  long sessionId(Connection connection, @Nullable String branch) throws SQLException {
    return -1;
  }

  /**
   * The shard's lock waits now, each a waiting session and a session it waits for, read on a
   * connection of its own; none where the backend has no list ShardSet reads.
   */
  List<long[]> lockWaits(Connection monitor) throws SQLException {
    return List.of();
  }

  /** Whether {@link #cancel} can end a lock wait on this backend. */
  boolean cancels() {
    return this == POSTGRESQL || this == MARIADB;
  }

  /**
   * Cancels the statement a session of the shard runs (waits in), from another connection.
   *
   * @return false if the backend cannot end a lock wait so
   */
  boolean cancel(Connection monitor, long session) throws SQLException {
    return false;
  }

  /** Whether the error says the shard holds no prepared branch of that id (any more). */
  boolean isUnknownBranch(SQLException e) {
    return false;
  }

  /** The product's name, for messages. */
  String productName() {
    return product == null ? "unknown" : product;
  }

  /**
   * PostgreSQL's refusal to prepare when {@code max_prepared_transactions} is 0, as an error
   * that says what to change; any other error as it is.
   */
  static SQLException disabledPreparedTransactions(SQLException e, String shard) {
    final String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if ("55000".equals(e.getSQLState()) && message.contains(PG_DISABLED)) {
      return new SQLException("PostgreSQL shard '" + shard + "' has max_prepared_transactions"
          + " = 0; two-phase commit across shards needs it above 0 (see docs/writing.md)",
          e.getSQLState(), e);
    }
    return e;
  }

  /**
   * Refuses to end a PostgreSQL branch in which a statement failed as if it could commit:
   * the server would roll it back where the caller asked for a commit.
   */
  private static void checkNotFailed(Connection connection) throws SQLException {
    if (connection.unwrap(BaseConnection.class).getTransactionState()
        == TransactionState.FAILED) {
      throw new SQLException("a statement of the transaction failed on this shard, which"
          + " rolled it back; it cannot commit", "25P02");
    }
  }

  /** A MariaDB branch's XID as statements write it: {@code 'gtrid'} or {@code 'gtrid','bqual'}. */
  private static String xid(String branch) {
    final int dot = branch.indexOf(SESSION);
    return dot < 0 ? "'" + branch + "'"
        : "'" + branch.substring(0, dot) + "','" + branch.substring(dot + 1) + "'";
  }

  private static long connectionId(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery("SELECT CONNECTION_ID()")) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static List<long[]> pairs(Connection connection, String sql) throws SQLException {
    final List<long[]> pairs = new ArrayList<>();
    try (Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        pairs.add(new long[] {rows.getLong(1), rows.getLong(2)});
      }
    }
    return pairs;
  }

  private static List<String> strings(Connection connection, String sql) throws SQLException {
    final List<String> values = new ArrayList<>();
    try (Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        values.add(rows.getString(1));
      }
    }
    return values;
  }
}
