package io.shardset.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local MariaDB server (127.0.0.1:3306, user {@code root}, no password) for tests that
 * need MariaDB shards: each test creates its own databases and drops them afterwards.
 *
 * <p>Where no server answers, {@link #require()} skips the test with a visible message; with
 * the environment variable {@code SHARDSET_REQUIRE_MARIADB=1} it fails it instead.
 */
public final class MariaDbServer {
  /** The server, without a database. */
  public static final String SERVER = "jdbc:mariadb://127.0.0.1:3306/";
  public static final String USER = "root";
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private MariaDbServer() {
  }

  /** Skips (or, when required, fails) the calling test if the server cannot be reached. */
  public static void require() {
    LocalServers.require("MariaDB at " + SERVER, "SHARDSET_REQUIRE_MARIADB", MariaDbServer::admin);
  }

  /** A connection to the server without a current database, for creating and dropping. */
  public static Connection admin() throws SQLException {
    return DriverManager.getConnection(SERVER, USER, "");
  }

  /** The JDBC URL of a database on the server. */
  public static String url(String database) {
    return SERVER + database;
  }

  /**
   * Creates {@code count} new, empty databases named {@code <prefix>_<n>_s0 ...} and returns
   * their names; {@link #drop} removes them.
   */
  public static List<String> createDatabases(String prefix, int count) throws SQLException {
    final int n = DATABASES.incrementAndGet();
    final List<String> names = new ArrayList<>();
    try (Connection c = admin(); Statement s = c.createStatement()) {
      for (int i = 0; i < count; i++) {
        final String name = (prefix + "_" + ProcessHandle.current().pid() + "_" + n + "_s" + i)
            .toLowerCase(Locale.ROOT);
        s.execute("DROP DATABASE IF EXISTS " + name);
        s.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
        names.add(name);
      }
    }
    return names;
  }

  /** Drops databases. */
  public static void drop(List<String> databases) throws SQLException {
    try (Connection c = admin(); Statement s = c.createStatement()) {
      for (String name : databases) {
        // As PostgreSQL's DROP DATABASE ... WITH (FORCE): the sessions still on the database
        // (the tests' pools, which outlive their fixtures) would count against
        // max_connections until the test JVM ends.
        final List<Long> sessions = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement(
            "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = ?")) {
          p.setString(1, name);
          try (ResultSet rows = p.executeQuery()) {
            while (rows.next()) {
              sessions.add(rows.getLong(1));
            }
          }
        }
        for (long session : sessions) {
          try {
            s.execute("KILL CONNECTION " + session);
          } catch (SQLException e) {
            // Ended meanwhile.
          }
        }
        s.execute("DROP DATABASE IF EXISTS " + name);
      }
    }
  }
}
