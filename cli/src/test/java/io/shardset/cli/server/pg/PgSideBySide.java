package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A ShardSet server with the PostgreSQL port and one PostgreSQL database, both holding the
 * tests' ITEMS table with the same rows, and psql run on each: what the tests that compare a
 * client's answers with PostgreSQL's stand on.
 */
final class PgSideBySide implements AutoCloseable {
  private final PgServerFixture server;
  private final PgReference reference;

  private PgSideBySide(PgServerFixture server, PgReference reference) {
    this.server = server;
    this.reference = reference;
  }

  /**
   * Starts both, {@code rows} rows in each.
   *
   * @param prefix names the PostgreSQL database
   */
  static PgSideBySide start(String prefix, Backend backend, int shards, int rows)
      throws Exception {
    PostgresServer.require();
    final PgServerFixture server =
        PgServerFixture.start(backend, shards, PgJdbcTest.TABLES, PgJdbcTest.DDL);
    try {
      try (Connection c = server.embedded()) {
        PgJdbcTest.load(c, rows);
      }
      return new PgSideBySide(server, PgReference.create(prefix, rows));
    } catch (Exception | Error e) {
      server.close();
      throw e;
    }
  }

  PgServerFixture server() {
    return server;
  }

  PgReference reference() {
    return reference;
  }

  /** psql with these arguments on ShardSet, then on PostgreSQL. */
  List<Psql.Run> psql(String... arguments) throws Exception {
    final List<String> onPostgresql = new ArrayList<>(List.of("-d", reference.database()));
    onPostgresql.addAll(List.of(arguments));
    return List.of(Psql.run(server.port(), "tester", null, arguments),
        Psql.run(5432, PostgresServer.USER, null, onPostgresql.toArray(String[]::new)));
  }

  /** psql running these statements, each a {@code -c}, on ShardSet, then on PostgreSQL. */
  List<Psql.Run> statements(String... statements) throws Exception {
    final List<String> arguments = new ArrayList<>();
    for (String statement : statements) {
      arguments.addAll(List.of("-c", statement));
    }
    return psql(arguments.toArray(String[]::new));
  }

  @Override public void close() throws SQLException {
    try {
      server.close();
    } finally {
      reference.close();
    }
  }
}
