package io.shardset.transaction;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.execution.ShardEndpoint;
import io.shardset.testing.Backend;
import io.shardset.testing.TestPools;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shards for transaction tests, each with a table {@code t(id int primary key)} (on
 * PostgreSQL also {@code d}, whose foreign key is checked at commit), reached through the
 * process's test pools; and what the shards hold, read over connections of their own.
 */
final class TxShards implements AutoCloseable {
  /** The decision logs this process's tests made, whose branches {@link #close} rolls back. */
  private static final Set<LogDatabase> LOGS = ConcurrentHashMap.newKeySet();

  private final Backend.Databases databases;
  private final Map<String, ShardEndpoint> endpoints = new LinkedHashMap<>();

  private TxShards(Backend.Databases databases) {
    this.databases = databases;
    for (ShardConnectionSettings settings : databases.shards()) {
      endpoints.put(settings.shardName(), TestPools.pools().endpoint(settings));
    }
  }

  /** Creates {@code count} shards {@code s0...} on the backend (skipping without servers). */
  static TxShards create(Backend backend, int count) throws SQLException {
    final TxShards shards = new TxShards(backend.create("tx", count));
    for (int i = 0; i < count; i++) {
      try (Connection c = shards.connect(i); Statement s = c.createStatement()) {
        s.execute("create table t(id int primary key)");
        if (c.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
          s.execute("create table p(id int primary key)");
          s.execute("create table d(id int primary key, parent int references p(id)"
              + " deferrable initially deferred)");
        }
      }
    }
    return shards;
  }

  /** The shards' endpoints by name, {@code s0} first. */
  Map<String, ShardEndpoint> endpoints() {
    return endpoints;
  }

  ShardEndpoint endpoint(int shard) {
    return endpoints.get("s" + shard);
  }

  ShardConnectionSettings settings(int shard) {
    return databases.shards().get(shard);
  }

  int count() {
    return endpoints.size();
  }

  /** Inserts id into the shard's table t in the transaction. */
  void insert(ShardTransaction transaction, int shard, int id) throws SQLException {
    try (Statement s = transaction.connection(endpoint(shard)).createStatement()) {
      s.executeUpdate("insert into t values (" + id + ")");
    }
  }

  /** Inserts id into every shard's table t in the transaction. */
  void insertEverywhere(ShardTransaction transaction, int id) throws SQLException {
    for (int i = 0; i < count(); i++) {
      insert(transaction, i, id);
    }
  }

  /** The ids in the shard's table t, committed. */
  List<Integer> ids(int shard) throws SQLException {
    final List<Integer> ids = new ArrayList<>();
    try (Connection c = connect(shard); Statement s = c.createStatement();
         ResultSet rows = s.executeQuery("select id from t order by id")) {
      while (rows.next()) {
        ids.add(rows.getInt(1));
      }
    }
    return ids;
  }

  /** The ids of every shard's table t, {@code s0} first. */
  List<List<Integer>> idsEverywhere() throws SQLException {
    final List<List<Integer>> all = new ArrayList<>();
    for (int i = 0; i < count(); i++) {
      all.add(ids(i));
    }
    return all;
  }

  /** The branches of this log's transactions the shard holds prepared. */
  List<String> prepared(int shard, String logPrefix) throws SQLException {
    try (Connection c = connect(shard)) {
      return CommitProtocol.of(c).prepared(c).stream()
          .filter(id -> id.startsWith(logPrefix)).toList();
    }
  }

  /** The branches of this log's transactions all shards hold prepared, each once. */
  List<String> preparedEverywhere(String logPrefix) throws SQLException {
    final List<String> all = new ArrayList<>();
    for (int i = 0; i < count(); i++) {
      prepared(i, logPrefix).stream().filter(id -> !all.contains(id)).forEach(all::add);
    }
    return all;
  }

  /** A connection of its own to the shard's database. */
  Connection connect(int shard) throws SQLException {
    final ShardConnectionSettings s = settings(shard);
    return DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
  }

  /** What every transaction id of the log at this place starts with. */
  static String prefix(LogDatabase log) throws SQLException {
    try (Connection c = log.connect(); Statement s = c.createStatement();
         ResultSet rows = s.executeQuery(
             "select log_id from shardset_tx_log where name = 'log'")) {
      rows.next();
      return GlobalId.prefix(rows.getString(1));
    }
  }

  /** The commit records of the log at this place, by transaction id. */
  static Map<String, DecisionLog.Decision> decisions(LogDatabase log) throws SQLException {
    try (DecisionLog open = DecisionLog.open(log)) {
      return open.decisions();
    }
  }

  /**
   * Recovers until no branch is skipped, and adds the passes' counts up. Recovery leaves a
   * MariaDB branch alone until the server has ended the session that ran it, which for a
   * process that just died takes the server a moment; no pass is needed elsewhere.
   */
  static RecoveryReport recoverAll(TransactionCoordinator coordinator) throws SQLException {
    RecoveryReport total = coordinator.recover();
    for (int pass = 0; total.skipped() > 0 && pass < 1000; pass++) {
      total = total.plus(coordinator.recover());
    }
    return total;
  }

  /** A decision log in a new H2 file under the folder. */
  static LogDatabase log(Path folder, String name) {
    return log(LogDatabase.h2File(folder.resolve(name)));
  }

  /** A log whose transactions the shards' cleanup rolls back. */
  static LogDatabase log(LogDatabase log) {
    LOGS.add(log);
    return log;
  }

  /** Settings of a schema with its log there. */
  static TransactionSettings settings(LogDatabase log, boolean bestEffort) {
    return new TransactionSettings("TX", log, null, bestEffort, java.time.Duration.ofHours(1));
  }

  /**
   * Rolls back whatever transactions of this process's decision logs the shards still hold,
   * and drops them. Only those: a MariaDB server lists every database's branches, and the
   * branches of tests running in other processes at the same time are theirs to finish.
   */
  @Override public void close() throws SQLException {
    final List<String> prefixes = new ArrayList<>();
    for (LogDatabase log : LOGS) {
      if (log.exists()) {
        prefixes.add(prefix(log));
      }
    }
    for (int i = 0; i < count(); i++) {
      try (Connection c = connect(i)) {
        final CommitProtocol protocol = CommitProtocol.of(c);
        for (String id : protocol.prepared(c)) {
          if (prefixes.stream().anyMatch(id::startsWith)) {
            try {
              protocol.rollbackPrepared(c, id);
            } catch (SQLException e) {
              // Gone meanwhile.
            }
          }
        }
      }
    }
    databases.close();
  }
}
