package io.shardset.cli.server.pg;

import io.shardset.testing.PostgresServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One PostgreSQL database with the tests' ITEMS table ({@link PgJdbcTest#DDL}) and its first
 * rows ({@link PgJdbcTest#load}): what a client's answers through ShardSet are compared with.
 * Dropped when closed.
 */
final class PgReference implements AutoCloseable {
  private final String database;

  private PgReference(String database) {
    this.database = database;
  }

  /** Creates the database, named from {@code prefix}, with {@code rows} rows. */
  static PgReference create(String prefix, int rows) throws SQLException {
    final PgReference reference =
        new PgReference(PostgresServer.createDatabases(prefix, 1).get(0));
    try (Connection c = reference.connect(); Statement s = c.createStatement()) {
      s.execute(PgJdbcTest.DDL);
      PgJdbcTest.load(c, rows);
    }
    return reference;
  }

  /** The database's name. */
  String database() {
    return database;
  }

  /** A pgJDBC connection to the database, as PostgreSQL's superuser. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(PostgresServer.url(database), PostgresServer.USER, "");
  }

  @Override public void close() throws SQLException {
    PostgresServer.drop(List.of(database));
  }
}
