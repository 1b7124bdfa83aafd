package io.shardset.transaction;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decision log of a coordinator: a database holding a commit record for each transaction
 * across shards that was decided to commit but may not have committed on every shard yet, and
 * a registration for each coordinator instance that writes to it.
 *
 * <p>Tables (created on first use): {@code shardset_tx_log} (the log's own random id, part of
 * every transaction id), {@code shardset_tx_decisions} (gid, schema, participants),
 * {@code shardset_tx_coordinators} (one row per live instance) and
 * {@code shardset_tx_locks} (one row per instance, which the instance keeps locked).
 *
 * <h2>Which instance is alive</h2>
 * Each instance keeps its lock row locked for its whole life, in a transaction that a
 * dedicated connection holds open; the database releases the lock when that connection ends,
 * with the process or not. An instance is dead to a recoverer that can lock its lock row
 * without waiting ({@code FOR UPDATE NOWAIT}); the recoverer then deletes its rows. Nothing
 * depends on clocks.
 *
 * <p>That judgement may be wrong the other way, when an instance merely lost its connection
 * to the log; so an instance records a decision in a transaction that first locks its own
 * {@code shardset_tx_coordinators} row, and fails to record when the row is gone. The
 * recoverer deletes that row before it reads the decisions, so either it sees the record and
 * commits, or the instance cannot record and rolls back: never both outcomes.
 */
final class DecisionLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DecisionLog.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
  private static final int LOG_ID_LENGTH = 6;
  private static final int INSTANCE_ID_LENGTH = 8;
  private static final String SEPARATOR = "\n";
  private static final List<String> TABLES = List.of(
      "CREATE TABLE IF NOT EXISTS shardset_tx_log (name VARCHAR(16) NOT NULL PRIMARY KEY,"
          + " log_id VARCHAR(16) NOT NULL)",
      "CREATE TABLE IF NOT EXISTS shardset_tx_decisions (gid VARCHAR(64) NOT NULL PRIMARY KEY,"
          + " scope VARCHAR(200) NOT NULL, participants VARCHAR(8000) NOT NULL,"
          + " decided_at VARCHAR(40) NOT NULL)",
      "CREATE TABLE IF NOT EXISTS shardset_tx_coordinators (instance_id VARCHAR(16) NOT NULL"
          + " PRIMARY KEY, started_at VARCHAR(40) NOT NULL, process VARCHAR(200) NOT NULL)",
      "CREATE TABLE IF NOT EXISTS shardset_tx_locks (instance_id VARCHAR(16) NOT NULL"
          + " PRIMARY KEY)");

  private final LogDatabase database;
  private final String logId;
  /** Whether a commit must be followed by a checkpoint to reach the disk (H2 files). */
  private final boolean syncAfterCommit;
  /** This instance's id; guarded by this. */
  private @Nullable String instance;
  /** The connection whose open transaction holds this instance's lock row; guarded by this. */
  private @Nullable Connection holder;
  private boolean closed;

  /** A commit record: the schema whose transaction it was, and the shards that took part. */
  record Decision(String scope, List<String> participants) {
  }

  private DecisionLog(LogDatabase database, String logId, boolean syncAfterCommit) {
    this.database = database;
    this.logId = logId;
    this.syncAfterCommit = syncAfterCommit;
  }

  /**
   * Opens the log, creating its tables and id on first use, and registers a new coordinator
   * instance in it.
   */
  static DecisionLog open(LogDatabase database) throws SQLException {
    try (Connection connection = database.connect()) {
      createTables(connection);
      final boolean h2File = connection.getMetaData().getDatabaseProductName().equals("H2")
          && !database.url().startsWith("jdbc:h2:mem:");
      final DecisionLog log = new DecisionLog(database, logId(connection), h2File);
      // The log's id names the transactions prepared from now on: it must outlive a crash.
      log.sync(connection);
      log.instance();
      return log;
    }
  }

  private static void createTables(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String table : TABLES) {
        try {
          statement.execute(table);
        } catch (SQLException e) {
          // Another process created it at the same moment: the second try sees it.
          statement.execute(table);
        }
      }
    }
  }

  private static String logId(Connection connection) throws SQLException {
    final String known = readLogId(connection);
    if (known != null) {
      return known;
    }
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO shardset_tx_log (name, log_id) VALUES ('log', ?)")) {
      insert.setString(1, random(LOG_ID_LENGTH));
      insert.executeUpdate();
    } catch (SQLException e) {
      // Another process gave the log its id first.
    }
    final String id = readLogId(connection);
    if (id == null) {
      throw new SQLException("the decision log has no id");
    }
    return id;
  }

  private static @Nullable String readLogId(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery(
             "SELECT log_id FROM shardset_tx_log WHERE name = 'log'")) {
      return rows.next() ? rows.getString(1) : null;
    }
  }

  /** The log's id, part of the id of every transaction it decides. */
  String logId() {
    return logId;
  }

  /**
   * This instance's id, registering the instance anew when it lost its lock (its connection
   * to the log broke): the old id may have been taken for dead meanwhile.
   */
  synchronized String instance() throws SQLException {
    if (closed) {
      throw new SQLException("the decision log " + database + " is closed");
    }
    if (instance != null && holder != null && isValid(holder)) {
      return instance;
    }
    closeHolder();
    instance = null;
    for (int attempt = 0; ; attempt++) {
      final String id = random(INSTANCE_ID_LENGTH);
      try {
        holder = register(id);
        instance = id;
        return id;
      } catch (SQLException e) {
        if (attempt >= 3) {
          throw new SQLException("cannot register in the decision log " + database + ": "
              + database.redact(e.getMessage()), e.getSQLState(), e);
        }
      }
    }
  }

  private Connection register(String id) throws SQLException {
    final Connection connection = database.connect();
    try {
      connection.setAutoCommit(false);
      update(connection, "INSERT INTO shardset_tx_coordinators (instance_id, started_at,"
          + " process) VALUES (?, ?, ?)", id, Instant.now().toString(), process());
      update(connection, "INSERT INTO shardset_tx_locks (instance_id) VALUES (?)", id);
      connection.commit();
      // From here to the end of the process (or of this connection) the row stays locked.
      if (!exists(connection, "SELECT instance_id FROM shardset_tx_locks WHERE instance_id = ?"
          + " FOR UPDATE", id)
          || !exists(connection, "SELECT instance_id FROM shardset_tx_coordinators"
          + " WHERE instance_id = ?", id)) {
        throw new SQLException("taken for dead before it locked its row");
      }
      return connection;
    } catch (SQLException | RuntimeException e) {
      close(connection);
      throw e;
    }
  }

  /**
   * Records that the transaction commits, durably, unless this instance's registration was
   * taken away (see the class comment).
   *
   * @throws DecisionUnknownException if the log may or may not have kept the record
   * @throws SQLException if it did not record it
   */
  void record(GlobalId id, String scope, List<String> participants) throws SQLException {
    try (Connection connection = database.connect()) {
      connection.setAutoCommit(false);
      try {
        if (!exists(connection, "SELECT instance_id FROM shardset_tx_coordinators"
            + " WHERE instance_id = ? FOR UPDATE", id.instance())) {
          lost(id.instance());
          throw new SQLException("coordinator instance " + id.instance() + " lost its"
              + " registration in the decision log (another process took it for dead: its"
              + " connection to the log broke, or it stalled with a transaction prepared)");
        }
        update(connection, "INSERT INTO shardset_tx_decisions (gid, scope, participants,"
            + " decided_at) VALUES (?, ?, ?, ?)", id.text(), scope,
            String.join(SEPARATOR, participants), Instant.now().toString());
      } catch (SQLException | RuntimeException e) {
        rollback(connection);
        throw e;
      }
      try {
        connection.commit();
      } catch (SQLException e) {
        throw new DecisionUnknownException(database.redact(e.getMessage()), e);
      }
      sync(connection);
    }
  }

  /**
   * Checks that this instance is still registered, after a sign that it may not be (a branch
   * it was committing had been finished by another process): if it is not, the next
   * transaction registers anew rather than fail to record its decision.
   */
  void confirm(String id) {
    try (Connection connection = database.connect()) {
      if (!exists(connection, "SELECT instance_id FROM shardset_tx_coordinators"
          + " WHERE instance_id = ?", id)) {
        lost(id);
      }
    } catch (SQLException e) {
      LOG.debug("Cannot check the registration of coordinator instance {}: {}", id,
          database.redact(e.getMessage()));
    }
  }

  /**
   * Forgets this instance's id once its registration is gone (another process took it for
   * dead, or fenced it): the transactions begun under it can record nothing, and the next one
   * registers anew. Its lock row goes with the connection that holds it.
   */
  private synchronized void lost(String id) {
    if (!id.equals(instance)) {
      return;
    }
    if (holder != null) {
      try {
        update(holder, "DELETE FROM shardset_tx_locks WHERE instance_id = ?", id);
        holder.commit();
      } catch (SQLException e) {
        // The row stays, unlocked once the connection closes; recovery deletes it.
      }
    }
    closeHolder();
    instance = null;
    LOG.warn("Coordinator instance {} lost its registration in the decision log {} (another"
        + " process took it for dead); the transactions it had begun roll back", id, database);
  }

  private void sync(Connection connection) {
    if (!syncAfterCommit) {
      return;
    }
    try (Statement statement = connection.createStatement()) {
      // H2 writes commits to its file within a second; this writes them now, and to disk.
      statement.execute("CHECKPOINT SYNC");
    } catch (SQLException e) {
      LOG.warn("Could not force the decision log {} to disk: {}", database,
          database.redact(e.getMessage()));
    }
  }

  /** Deletes the commit record of a transaction that committed on every shard. */
  void forget(String gid) throws SQLException {
    try (Connection connection = database.connect()) {
      update(connection, "DELETE FROM shardset_tx_decisions WHERE gid = ?", gid);
    }
  }

  /** Every commit record, by transaction id. */
  Map<String, Decision> decisions() throws SQLException {
    final Map<String, Decision> decisions = new LinkedHashMap<>();
    try (Connection connection = database.connect();
         Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery(
             "SELECT gid, scope, participants FROM shardset_tx_decisions")) {
      while (rows.next()) {
        decisions.put(rows.getString(1), new Decision(rows.getString(2),
            List.of(rows.getString(3).split(SEPARATOR))));
      }
    }
    return decisions;
  }

  /**
   * Whether another instance is alive: its lock row is locked. One that is not is dead for
   * good: its rows are deleted, so that it can record no decision any more. When in doubt
   * (the log fails), alive.
   */
  boolean isAlive(String other) {
    try (Connection connection = database.connect()) {
      connection.setAutoCommit(false);
      try {
        if (!exists(connection, "SELECT instance_id FROM shardset_tx_coordinators"
            + " WHERE instance_id = ?", other)) {
          // Fenced, or gone: a lock row its connection no longer holds is deleted too.
          try {
            if (exists(connection, "SELECT instance_id FROM shardset_tx_locks"
                + " WHERE instance_id = ? FOR UPDATE NOWAIT", other)) {
              update(connection, "DELETE FROM shardset_tx_locks WHERE instance_id = ?", other);
              connection.commit();
            }
          } catch (SQLException e) {
            // Still held by the instance's connection: it goes when that connection ends.
          }
          rollback(connection);
          return false;
        }
        try {
          exists(connection, "SELECT instance_id FROM shardset_tx_locks WHERE instance_id = ?"
              + " FOR UPDATE NOWAIT", other);
        } catch (SQLException e) {
          // Locked: the instance's connection holds it.
          rollback(connection);
          return true;
        }
        // Waits for a decision the instance is recording now: it is then seen.
        update(connection, "DELETE FROM shardset_tx_coordinators WHERE instance_id = ?", other);
        update(connection, "DELETE FROM shardset_tx_locks WHERE instance_id = ?", other);
        connection.commit();
        LOG.info("Coordinator instance {} of decision log {} is gone", other, database);
        return false;
      } catch (SQLException e) {
        rollback(connection);
        return true;
      }
    } catch (SQLException e) {
      LOG.warn("Cannot tell whether coordinator instance {} is alive: {}", other,
          database.redact(e.getMessage()));
      return true;
    }
  }

  /**
   * Takes another instance for dead although it may hold its lock (it was paused, or cut off
   * from its shards): its registration is deleted, so that it can record no decision any more
   * (a decision it is recording right now is waited for, up to {@code wait}, and then
   * seen). Whatever it had decided is in {@link #decisions()} read after this returns true.
   *
   * @return whether the instance can record nothing any more; false if the wait ran out or
   *     the log failed
   */
  boolean fence(String other, Duration wait) {
    try (Connection connection = database.connect()) {
      connection.setAutoCommit(false);
      try (PreparedStatement delete = connection.prepareStatement(
          "DELETE FROM shardset_tx_coordinators WHERE instance_id = ?")) {
        delete.setQueryTimeout((int) Math.max(1, wait.toSeconds()));
        delete.setString(1, other);
        delete.executeUpdate();
        connection.commit();
        LOG.info("Coordinator instance {} of decision log {} was fenced: it records no"
            + " decision any more", other, database);
        return true;
      } catch (SQLException e) {
        rollback(connection);
        LOG.warn("Cannot fence coordinator instance {} of decision log {}: {}", other,
            database, database.redact(e.getMessage()));
        return false;
      }
    } catch (SQLException e) {
      LOG.warn("Cannot fence coordinator instance {} of decision log {}: {}", other, database,
          database.redact(e.getMessage()));
      return false;
    }
  }

  /** Unregisters the instance and lets go of the log. */
  @Override public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (holder != null && instance != null) {
      try {
        update(holder, "DELETE FROM shardset_tx_coordinators WHERE instance_id = ?", instance);
        update(holder, "DELETE FROM shardset_tx_locks WHERE instance_id = ?", instance);
        holder.commit();
      } catch (SQLException e) {
        // Its lock goes with the connection; another instance's recovery deletes its rows.
      }
    }
    closeHolder();
  }

  /** Where the log lives, without secrets. */
  LogDatabase database() {
    return database;
  }

  private void closeHolder() {
    if (holder != null) {
      close(holder);
      holder = null;
    }
  }

  private static boolean isValid(Connection connection) {
    try {
      return connection.isValid(5);
    } catch (SQLException e) {
      return false;
    }
  }

  private static boolean exists(Connection connection, String sql, String value)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, value);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next();
      }
    }
  }

  private static void update(Connection connection, String sql, String... values)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        statement.setString(i + 1, values[i]);
      }
      statement.executeUpdate();
    }
  }

  private static void rollback(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // The connection is closed next.
    }
  }

  private static void close(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // Nothing more to do.
    }
  }

  /** The process, for whoever reads the table: its id, and the user running it. */
  private static String process() {
    final String text = "pid " + ProcessHandle.current().pid() + " of "
        + System.getProperty("user.name", "?");
    return text.length() > 200 ? text.substring(0, 200) : text;
  }

  private static String random(int length) {
    final StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(DIGITS.charAt(RANDOM.nextInt(DIGITS.length())));
    }
    return text.toString();
  }
}
