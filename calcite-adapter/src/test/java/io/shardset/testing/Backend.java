package io.shardset.testing;

import io.shardset.execution.ShardConnectionSettings;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kinds of database a test's shards (and its unsharded oracle) live on: embedded H2, the
 * local PostgreSQL and MariaDB servers, or a mix of them in one model.
 */
public enum Backend {
  /** Every shard an H2 in-memory database; the oracle too. */
  H2(Kind.H2),
  /** Every shard a new database on the local PostgreSQL server; the oracle too. */
  POSTGRES(Kind.POSTGRES),
  /** The first half of the shards on H2, the rest on PostgreSQL; the oracle on H2. */
  MIXED(Kind.H2),
  /**
   * The first half of the shards on H2, then PostgreSQL, the last shard on MariaDB; the oracle
   * on H2.
   */
  MIXED_WITH_MARIADB(Kind.H2),
  /** Every shard a new database on the local MariaDB server; the oracle too. */
  MARIADB(Kind.MARIADB);

  /** One kind of database. */
  private enum Kind { H2, POSTGRES, MARIADB }

  private static final AtomicInteger H2_DATABASES = new AtomicInteger();

  private final Kind oracle;

  Backend(Kind oracle) {
    this.oracle = oracle;
  }

  private Kind kindOfShard(int index, int count) {
    switch (this) {
    case H2:
      return Kind.H2;
    case POSTGRES:
      return Kind.POSTGRES;
    case MIXED:
      return index < count / 2 ? Kind.H2 : Kind.POSTGRES;
    case MARIADB:
      return Kind.MARIADB;
    default:
      return index < count / 2 ? Kind.H2 : index < count - 1 ? Kind.POSTGRES : Kind.MARIADB;
    }
  }

  /**
   * Creates {@code count} empty shard databases {@code s0, s1, ...} and one unsharded oracle
   * database; skips the calling test (see {@link PostgresServer#require()}) if a server the
   * backend needs cannot be reached.
   */
  public Databases create(String prefix, int count) throws SQLException {
    final List<Kind> kinds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      kinds.add(kindOfShard(i, count));
    }
    kinds.add(oracle);
    final List<String> postgres = new ArrayList<>();
    final List<String> mariaDb = new ArrayList<>();
    final int postgresCount = (int) kinds.stream().filter(k -> k == Kind.POSTGRES).count();
    final int mariaDbCount = (int) kinds.stream().filter(k -> k == Kind.MARIADB).count();
    if (postgresCount > 0) {
      PostgresServer.require();
    }
    if (mariaDbCount > 0) {
      MariaDbServer.require();
    }
    if (postgresCount > 0) {
      postgres.addAll(PostgresServer.createDatabases(prefix, postgresCount));
    }
    if (mariaDbCount > 0) {
      mariaDb.addAll(MariaDbServer.createDatabases(prefix, mariaDbCount));
    }
    final List<ShardConnectionSettings> settings = new ArrayList<>();
    final List<String> h2Urls = new ArrayList<>();
    int nextPostgres = 0;
    int nextMariaDb = 0;
    for (int i = 0; i < kinds.size(); i++) {
      final String name = i < count ? "s" + i : "oracle";
      final String url;
      final String user;
      switch (kinds.get(i)) {
      case H2:
        // The process id keeps names apart between test JVMs: a model read from no file
        // keeps its decision log in a folder named after its shards' URLs, which another JVM's
        // equal URLs would share (and recover, sending statements to this JVM's shards).
        url = "jdbc:h2:mem:" + prefix + "_" + name + "_" + ProcessHandle.current().pid() + "_"
            + H2_DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
        user = "sa";
        h2Urls.add(url);
        break;
      case POSTGRES:
        url = PostgresServer.url(postgres.get(nextPostgres++));
        user = PostgresServer.USER;
        break;
      default:
        url = MariaDbServer.url(mariaDb.get(nextMariaDb++));
        user = MariaDbServer.USER;
        break;
      }
      settings.add(new ShardConnectionSettings(name, url, user, "", null,
          ShardConnectionSettings.DEFAULT_MAX_POOL_SIZE));
    }
    return new Databases(settings.subList(0, count), settings.get(count), h2Urls, postgres,
        mariaDb);
  }

  /** Shard databases and an oracle that {@link #close()} removes again. */
  public static final class Databases implements AutoCloseable {
    private final List<ShardConnectionSettings> shards;
    private final ShardConnectionSettings oracle;
    private final List<String> h2Urls;
    private final List<String> postgresDatabases;
    private final List<String> mariaDbDatabases;

    private Databases(List<ShardConnectionSettings> shards, ShardConnectionSettings oracle,
        List<String> h2Urls, List<String> postgresDatabases, List<String> mariaDbDatabases) {
      this.shards = List.copyOf(shards);
      this.oracle = oracle;
      this.h2Urls = List.copyOf(h2Urls);
      this.postgresDatabases = List.copyOf(postgresDatabases);
      this.mariaDbDatabases = List.copyOf(mariaDbDatabases);
    }

    /** The shards' connection settings, {@code s0} first. */
    public List<ShardConnectionSettings> shards() {
      return shards;
    }

    /**
     * Opens a connection to the unsharded oracle. A MariaDB oracle reads SQL as the standard
     * (and ShardSet's shard sessions) do: backslashes are plain characters and {@code ||}
     * concatenates.
     */
    public Connection connectOracle() throws SQLException {
      final Connection connection =
          DriverManager.getConnection(oracle.jdbcUrl(), oracle.user(), oracle.password());
      if (oracle.jdbcUrl().startsWith("jdbc:mariadb:")) {
        try (Statement s = connection.createStatement()) {
          s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode,"
              + " ',NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT')");
        }
      }
      return connection;
    }

    /** Shuts the H2 databases down and drops the server ones. */
    @Override public void close() throws SQLException {
      for (String url : h2Urls) {
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             Statement s = c.createStatement()) {
          s.execute("SHUTDOWN");
        }
      }
      if (!postgresDatabases.isEmpty()) {
        PostgresServer.drop(postgresDatabases);
      }
      if (!mariaDbDatabases.isEmpty()) {
        MariaDbServer.drop(mariaDbDatabases);
      }
    }
  }
}
