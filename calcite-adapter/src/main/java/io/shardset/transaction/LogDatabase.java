package io.shardset.transaction;

import io.shardset.execution.Secrets;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

/**
 * Where a decision log lives: a JDBC URL (credentials in it, or user and password), or an
 * embedded H2 file database that several processes share ({@code AUTO_SERVER=TRUE}: the
 * first to open it serves it to the others).
 *
 * @param url the JDBC URL
 * @param user the user, or null when the URL says
 * @param password the password, or null
 * @param h2File the H2 database file's path without H2's {@code .mv.db}, when the log is one
 *     ShardSet made up; null for a URL the model gave
 */
public record LogDatabase(String url, @Nullable String user, @Nullable String password,
    @Nullable Path h2File) {
  /** H2's error code of a connection to a server that went away. */
  private static final int H2_CONNECTION_BROKEN = 90067;
  /** How often an H2 log is opened before its failure counts. */
  private static final int OPEN_ATTEMPTS = 5;

  public LogDatabase {
    Objects.requireNonNull(url, "url");
  }

  /** The embedded H2 database at this path (H2 adds {@code .mv.db}), shared by processes. */
  public static LogDatabase h2File(Path file) {
    final Path absolute = file.toAbsolutePath().normalize();
    return new LogDatabase("jdbc:h2:file:" + absolute + ";AUTO_SERVER=TRUE", "sa", "",
        absolute);
  }

  /** The database a JDBC URL names, credentials included. */
  public static LogDatabase jdbcUrl(String url) {
    return new LogDatabase(url, null, null, null);
  }

  /** Whether the database exists already: always for a URL, when its file does for H2. */
  public boolean exists() {
    return h2File == null || Files.exists(Path.of(h2File + ".mv.db"));
  }

  /** Opens a new connection, in autocommit mode. */
  public Connection connect() throws SQLException {
    final Properties properties = new Properties();
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (password != null) {
      properties.setProperty("password", password);
    }
    for (int attempt = 1; ; attempt++) {
      try {
        return DriverManager.getConnection(url, properties);
      } catch (SQLException e) {
        // H2's shared file: a process that closes it stops serving it while its lock file
        // still names its server, and an open in that moment reaches the closed server
        // ("connection is broken"); opened again, the file is free or served anew.
        if (h2File == null || e.getErrorCode() != H2_CONNECTION_BROKEN
            || attempt == OPEN_ATTEMPTS) {
          throw new SQLException("cannot open the decision log " + this + ": "
              + redact(e.getMessage()), e.getSQLState(), e.getErrorCode());
        }
      }
    }
  }

  /** Returns the message with the log's password removed. */
  String redact(@Nullable String message) {
    return Secrets.of(List.of(url), Arrays.asList(password)).redact(message);
  }

  /** The URL without its password, for messages. */
  @Override public String toString() {
    return redact(h2File != null ? h2File.toString() : url);
  }
}
