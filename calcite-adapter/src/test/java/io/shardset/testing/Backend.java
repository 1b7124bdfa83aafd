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
 * The kind of database a test's shards (and its unsharded oracle) live on: embedded H2, the
 * local PostgreSQL server, or a mix of H2 and PostgreSQL shards in one model.
 */
public enum Backend {
  /** Every shard an H2 in-memory database; the oracle too. */
  H2,
  /** Every shard a new database on the local PostgreSQL server; the oracle too. */
  POSTGRES,
  /** The first half of the shards on H2, the rest on PostgreSQL; the oracle on H2. */
  MIXED;

  private static final AtomicInteger H2_DATABASES = new AtomicInteger();

  /**
   * Creates {@code count} empty shard databases {@code s0, s1, ...} and one unsharded oracle
   * database; skips the calling test (see {@link PostgresServer#require()}) if a server the
   * backend needs cannot be reached.
   */
  public Databases create(String prefix, int count) throws SQLException {
    final int postgresFrom = this == H2 ? count : this == POSTGRES ? 0 : count / 2;
    final boolean postgresOracle = this == POSTGRES;
    final List<String> postgres = new ArrayList<>();
    if (postgresFrom < count || postgresOracle) {
      PostgresServer.require();
      postgres.addAll(PostgresServer.createDatabases(prefix,
          count - postgresFrom + (postgresOracle ? 1 : 0)));
    }
    final List<ShardConnectionSettings> shards = new ArrayList<>();
    final List<String> h2Urls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      final String name = "s" + i;
      if (i < postgresFrom) {
        final String url = h2Url(prefix + "_" + name);
        h2Urls.add(url);
        shards.add(new ShardConnectionSettings(name, url, "sa", "", null,
            ShardConnectionSettings.DEFAULT_MAX_POOL_SIZE));
      } else {
        shards.add(new ShardConnectionSettings(name,
            PostgresServer.url(postgres.get(i - postgresFrom)), PostgresServer.USER, "", null,
            ShardConnectionSettings.DEFAULT_MAX_POOL_SIZE));
      }
    }
    final String oracleUrl;
    final String oracleUser;
    if (postgresOracle) {
      oracleUrl = PostgresServer.url(postgres.get(postgres.size() - 1));
      oracleUser = PostgresServer.USER;
    } else {
      oracleUrl = h2Url(prefix + "_oracle");
      oracleUser = "sa";
      h2Urls.add(oracleUrl);
    }
    return new Databases(shards, oracleUrl, oracleUser, h2Urls, postgres);
  }

  private static String h2Url(String name) {
    return "jdbc:h2:mem:" + name + "_" + H2_DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
  }

  /** Shard databases and an oracle that {@link #close()} removes again. */
  public static final class Databases implements AutoCloseable {
    private final List<ShardConnectionSettings> shards;
    private final String oracleUrl;
    private final String oracleUser;
    private final List<String> h2Urls;
    private final List<String> postgresDatabases;

    private Databases(List<ShardConnectionSettings> shards, String oracleUrl, String oracleUser,
        List<String> h2Urls, List<String> postgresDatabases) {
      this.shards = List.copyOf(shards);
      this.oracleUrl = oracleUrl;
      this.oracleUser = oracleUser;
      this.h2Urls = List.copyOf(h2Urls);
      this.postgresDatabases = List.copyOf(postgresDatabases);
    }

    /** The shards' connection settings, {@code s0} first. */
    public List<ShardConnectionSettings> shards() {
      return shards;
    }

    /** Opens a connection to the unsharded oracle. */
    public Connection connectOracle() throws SQLException {
      return DriverManager.getConnection(oracleUrl, oracleUser, "");
    }

    /** Shuts the H2 databases down and drops the PostgreSQL ones. */
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
    }
  }
}
