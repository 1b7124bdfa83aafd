package io.shardset.clients;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.jdbc.ShardSetRemoteDriver;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.clients.Pools.Target;
import io.shardset.execution.ShardConnectionSettings;
import io.shardset.testing.Backend;
import io.shardset.testing.ExpectedPlacement;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.avatica.remote.Driver;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.junit.jupiter.params.provider.Arguments;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Three shards, in-memory H2 or new databases on the local PostgreSQL server (see
 * {@link Backend}), for the tests of the transactions applications run through frameworks:
 * ACCOUNTS hashed on its primary key ID, and ORDERS hashed on CUSTOMER_ID, a column that is
 * not its primary key, so that changing it moves the row. Gives a HikariCP pool of ShardSet's
 * embedded driver and one of its remote driver through a server on the same model, and reads
 * each shard's rows with plain JDBC, for asserting where every row is and that none is
 * doubled or missing.
 */
final class FrameworkShards implements AutoCloseable {
  static final int SHARDS = 3;
  private static final int CHUNKS = 60;
  private static final List<String> DDL = List.of(
      "CREATE TABLE ACCOUNTS (ID BIGINT PRIMARY KEY, OWNER VARCHAR(40) NOT NULL,"
          + " BALANCE DECIMAL(12, 2) NOT NULL, VERSION INT NOT NULL)",
      "CREATE TABLE ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER_ID BIGINT NOT NULL,"
          + " TOTAL DECIMAL(12, 2) NOT NULL, VERSION INT NOT NULL)");
  private static final String TABLES = "\"chunks\": " + CHUNKS + ", \"tables\": ["
      + "{\"name\": \"ACCOUNTS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]},"
      + " {\"name\": \"ORDERS\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"CUSTOMER_ID\"]}]";

  private final Backend.Databases databases;
  private final Path modelFile;
  private final Map<Target, HikariDataSource> pools = new EnumMap<>(Target.class);
  private ShardSetServer server;

  private FrameworkShards(Backend.Databases databases, Path modelFile) {
    this.databases = databases;
    this.modelFile = modelFile;
  }

  /** The four ways the tests run: each target on each backend. */
  static Stream<Arguments> setups() {
    final List<Arguments> all = new ArrayList<>();
    for (Backend backend : List.of(Backend.H2, Backend.POSTGRES)) {
      for (Target target : Target.values()) {
        all.add(Arguments.of(target, backend));
      }
    }
    return all.stream();
  }

  /** Creates the shards with both tables and writes the model into {@code folder}; skips the
   * calling test when the backend's server cannot be reached. */
  static FrameworkShards create(Backend backend, Path folder) throws SQLException, IOException {
    final Backend.Databases databases = backend.create("fw", SHARDS);
    try {
      final StringJoiner shards = new StringJoiner(", ", "[", "]");
      for (ShardConnectionSettings shard : databases.shards()) {
        try (Connection c = connect(shard); Statement s = c.createStatement()) {
          for (String sql : DDL) {
            s.execute(sql);
          }
        }
        shards.add("{\"name\": \"" + shard.shardName() + "\", \"jdbcUrl\": \""
            + shard.jdbcUrl() + "\", \"jdbcUser\": \"" + shard.user()
            + "\", \"jdbcPassword\": \"\"}");
      }
      final Path modelFile = folder.resolve(backend + "-model.json");
      final Path log = Files.createDirectories(folder.resolve(backend + "-log"));
      Files.writeString(modelFile, "{\"version\": \"1.0\", \"defaultSchema\": \""
          + ShardedFixture.SCHEMA + "\", \"schemas\": [{\"name\": \"" + ShardedFixture.SCHEMA
          + "\", \"type\": \"custom\", \"factory\": \"io.shardset.calcite.ShardSchemaFactory\","
          + " \"operand\": {\"shards\": " + shards + ", \"transactions\": {\"log\": \""
          + log + "\"}, " + TABLES + "}}]}", StandardCharsets.UTF_8);
      return new FrameworkShards(databases, modelFile);
    } catch (SQLException | IOException | RuntimeException e) {
      databases.close();
      throw e;
    }
  }

  private static Connection connect(ShardConnectionSettings shard) throws SQLException {
    return DriverManager.getConnection(shard.jdbcUrl(), shard.user(), shard.password());
  }

  /** The shard index of the row whose shard key (ACCOUNTS.ID, ORDERS.CUSTOMER_ID) is this. */
  static int shardOf(long key) {
    return ExpectedPlacement.shardOfLong(key, CHUNKS, SHARDS);
  }

  /** The first key from {@code from} on whose shard {@code key}'s row does not live. */
  static long onOtherShard(long key, long from) {
    return onShardOtherThan(from, key);
  }

  /** The first key from {@code from} on a shard none of {@code keys} lives on. */
  static long onShardOtherThan(long from, long... keys) {
    long other = from;
    while (true) {
      boolean free = true;
      for (long key : keys) {
        free &= shardOf(other) != shardOf(key);
      }
      if (free) {
        return other;
      }
      other++;
    }
  }

  /** The URL of ShardSet's driver to this model, embedded or through the server. */
  String url(Target target) throws SQLException {
    if (target == Target.EMBEDDED) {
      return "jdbc:shardset:model=" + modelFile.toAbsolutePath();
    }
    if (server == null) {
      server = ShardSetServer.start(ServerSettings.loopback(modelFile, 0,
          Driver.Serialization.PROTOBUF));
    }
    return server.jdbcUrl().replace("jdbc:avatica:remote:",
        ShardSetRemoteDriver.CONNECT_STRING_PREFIX);
  }

  /** The HikariCP pool of ShardSet's driver to this target, made on first use; three
   * connections at most, so that the tests reuse connections others have given back. */
  DataSource pool(Target target) throws SQLException {
    HikariDataSource pool = pools.get(target);
    if (pool == null) {
      final HikariConfig config = new HikariConfig();
      config.setDriverClassName(target == Target.EMBEDDED ? ShardSetDriver.class.getName()
          : ShardSetRemoteDriver.class.getName());
      config.setJdbcUrl(url(target));
      config.setMaximumPoolSize(3);
      config.setMinimumIdle(0);
      config.setPoolName("frameworks-" + target);
      pool = new HikariDataSource(config);
      pools.put(target, pool);
    }
    return pool;
  }

  /**
   * The committed rows of a query on each shard, read with plain JDBC: one list per shard,
   * {@code s0} first, each sorted. {@code sql} has one parameter pair, say
   * {@code WHERE ID BETWEEN ? AND ?}, bound to {@code from} and {@code to}. Unchecked, for
   * use inside a framework's callback too.
   */
  List<List<String>> onShards(String sql, long from, long to) {
    final List<List<String>> all = new ArrayList<>();
    for (ShardConnectionSettings shard : databases.shards()) {
      try (Connection c = connect(shard); PreparedStatement p = c.prepareStatement(sql)) {
        p.setLong(1, from);
        p.setLong(2, to);
        all.add(ShardFixture.sorted(ShardFixture.rows(p.executeQuery())));
      } catch (SQLException e) {
        throw new AssertionError("cannot read shard " + shard.shardName() + ": " + sql, e);
      }
    }
    return all;
  }

  /** Each shard's ACCOUNTS rows with ID from {@code from} to {@code to}, as
   * {@code ID, OWNER, BALANCE, VERSION}. */
  List<List<String>> accounts(long from, long to) {
    return onShards("SELECT ID, OWNER, BALANCE, VERSION FROM ACCOUNTS WHERE ID BETWEEN ? AND ?",
        from, to);
  }

  /** Each shard's ORDERS rows with ID from {@code from} to {@code to}, as
   * {@code ID, CUSTOMER_ID, TOTAL, VERSION}. */
  List<List<String>> orders(long from, long to) {
    return onShards("SELECT ID, CUSTOMER_ID, TOTAL, VERSION FROM ORDERS"
        + " WHERE ID BETWEEN ? AND ?", from, to);
  }

  /** Where rows belong: each on the shard of its shard key, exactly once. */
  static final class Placement {
    private final List<List<String>> shards = new ArrayList<>();

    Placement() {
      for (int i = 0; i < SHARDS; i++) {
        shards.add(new ArrayList<>());
      }
    }

    /** An ACCOUNTS row, as {@link #accounts} gives it, on the shard of its ID. */
    Placement account(long id, String owner, String balance, int version) {
      shards.get(shardOf(id)).add(id + ", " + owner + ", " + decimal(balance) + ", " + version);
      return this;
    }

    /** An ORDERS row, as {@link #orders} gives it, on the shard of its CUSTOMER_ID. */
    Placement order(long id, long customerId, String total, int version) {
      shards.get(shardOf(customerId)).add(id + ", " + customerId + ", " + decimal(total) + ", "
          + version);
      return this;
    }

    /** A decimal as {@link ShardFixture#rows} writes it: {@code 10.50} is {@code 10.5}. */
    private static String decimal(String value) {
      final BigDecimal d = new BigDecimal(value);
      return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    /** One list per shard, {@code s0} first, each sorted, as {@link #onShards} gives them. */
    List<List<String>> shards() {
      final List<List<String>> sorted = new ArrayList<>();
      for (List<String> rows : shards) {
        sorted.add(ShardFixture.sorted(rows));
      }
      return sorted;
    }
  }

  /** No row on any shard. */
  static List<List<String>> nowhere() {
    return new Placement().shards();
  }

  @Override public void close() throws SQLException {
    try {
      for (HikariDataSource pool : pools.values()) {
        pool.close();
      }
      if (server != null) {
        server.close();
      }
    } finally {
      databases.close();
    }
  }

  /** The fixtures of one test class, one per backend, made on first use. */
  static final class PerBackend implements AutoCloseable {
    private final Path folder;
    private final Map<Backend, FrameworkShards> open = new EnumMap<>(Backend.class);

    PerBackend(Path folder) {
      this.folder = folder;
    }

    FrameworkShards get(Backend backend) throws SQLException, IOException {
      FrameworkShards shards = open.get(backend);
      if (shards == null) {
        shards = create(backend, folder);
        open.put(backend, shards);
      }
      return shards;
    }

    @Override public void close() throws SQLException {
      for (FrameworkShards shards : open.values()) {
        shards.close();
      }
    }
  }
}
