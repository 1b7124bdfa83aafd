package io.shardset.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local PostgreSQL server (127.0.0.1:5432, user {@code postgres}, trust authentication)
 * for tests that need real PostgreSQL shards: each test creates its own databases and drops
 * them afterwards.
 *
 * <p>Where no server answers, {@link #require()} skips the test with a visible message; with
 * the environment variable {@code SHARDSET_REQUIRE_PG=1} (set by CI) it fails it instead, so
 * PostgreSQL tests never silently stop running.
 */
public final class PostgresServer {
  /** The server, without a database. */
  public static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
  public static final String USER = "postgres";
  private static final AtomicInteger DATABASES = new AtomicInteger();
  /** The databases this JVM created and did not drop: tests that kill processes (the catalog
   * servers', a killed coordinator's) leave theirs, which the JVM's exit drops. */
  private static final Set<String> LEFT = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(PostgresServer::dropLeft,
        "drop-test-databases"));
  }

  private PostgresServer() {
  }

  /** Skips (or, when required, fails) the calling test if the server cannot be reached. */
  public static void require() {
    LocalServers.require("PostgreSQL at " + SERVER, "SHARDSET_REQUIRE_PG", PostgresServer::admin);
  }

  /** A connection to the server's {@code postgres} database, for creating and dropping. */
  public static Connection admin() throws SQLException {
    return DriverManager.getConnection(SERVER + "postgres", USER, "");
  }

  /** The JDBC URL of a database on the server. */
  public static String url(String database) {
    return SERVER + database;
  }

  /**
   * Creates {@code count} new, empty databases named {@code <prefix>_<n>_s0 ...} and returns
   * their names; {@link #drop} removes them, and those a test leaves are dropped when its JVM
   * exits.
   */
  public static List<String> createDatabases(String prefix, int count) throws SQLException {
    final int n = DATABASES.incrementAndGet();
    final List<String> names = new ArrayList<>();
    try (Connection c = admin(); Statement s = c.createStatement()) {
      for (int i = 0; i < count; i++) {
        final String name = (prefix + "_" + ProcessHandle.current().pid() + "_" + n + "_s" + i)
            .toLowerCase(Locale.ROOT);
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        s.execute("CREATE DATABASE " + name);
        names.add(name);
        LEFT.add(name);
      }
    }
    return names;
  }

  private static void dropLeft() {
    if (LEFT.isEmpty()) {
      return;
    }
    try {
      drop(List.copyOf(LEFT));
    } catch (SQLException | RuntimeException e) {
      // The server went first: there is nothing to drop them from.
    }
  }

  /** Drops databases, disconnecting whoever is still connected to them. */
  public static void drop(List<String> databases) throws SQLException {
    LEFT.removeAll(databases);
    try (Connection c = admin(); Statement s = c.createStatement()) {
      for (String name : databases) {
        s.execute("ALTER DATABASE " + name + " ALLOW_CONNECTIONS true");
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
      }
    }
  }
}
