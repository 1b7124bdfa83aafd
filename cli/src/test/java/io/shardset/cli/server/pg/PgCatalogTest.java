package io.shardset.cli.server.pg;

import io.shardset.testing.Backend;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The catalog a PostgreSQL client reads, against PostgreSQL's own for the same table: psql's
 * {@code \dt}, {@code \dn} and {@code \d items}, pgJDBC's {@code DatabaseMetaData} (tables,
 * columns, primary keys, schemas) and {@code information_schema.columns} give the same
 * answers through ShardSet, over H2 and over PostgreSQL shards, as on one PostgreSQL database
 * that holds the table.
 */
class PgCatalogTest {
  private static final Map<Backend, PgServerFixture> SERVERS = new EnumMap<>(Backend.class);
  private static String reference;

  @BeforeAll static void start() throws Exception {
    PostgresServer.require();
    reference = PostgresServer.createDatabases("pgcatalog", 1).get(0);
    try (Connection c = postgresql(); Statement s = c.createStatement()) {
      s.execute(PgJdbcTest.DDL);
    }
    for (Backend backend : List.of(Backend.H2, Backend.POSTGRES)) {
      SERVERS.put(backend, PgServerFixture.start(backend, 2, PgJdbcTest.TABLES,
          PgJdbcTest.DDL));
    }
  }

  @AfterAll static void stop() throws SQLException {
    for (PgServerFixture server : SERVERS.values()) {
      server.close();
    }
    PostgresServer.drop(List.of(reference));
  }

  private static Connection postgresql() throws SQLException {
    return DriverManager.getConnection(PostgresServer.url(reference), PostgresServer.USER, "");
  }

  private static int postgresqlPort() {
    return 5432;
  }

  /** psql's output against ShardSet, and against the PostgreSQL database. */
  private static List<Psql.Run> psql(PgServerFixture server, String... arguments)
      throws Exception {
    final Psql.Run shardSet = Psql.run(server.port(), "tester", null, arguments);
    final List<String> onPostgresql = new ArrayList<>(List.of("-d", reference));
    onPostgresql.addAll(List.of(arguments));
    final Psql.Run postgresql = Psql.run(postgresqlPort(), PostgresServer.USER, null,
        onPostgresql.toArray(new String[0]));
    return List.of(shardSet, postgresql);
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES"})
  void psqlDescribesTheTableAsPostgresqlDoes(Backend backend) throws Exception {
    final PgServerFixture server = SERVERS.get(backend);
    // Aligned output, as psql prints it for a person, titles and footers included.
    final List<Psql.Run> d = psql(server, "-P", "format=aligned", "-P", "tuples_only=off",
        "-c", "\\d items");
    assertEquals(d.get(1).out(), d.get(0).out(), d.get(0).err());
    final List<Psql.Run> dt = psql(server, "-c", "\\dt");
    // Every table of the server's is the tester's; the database's are the postgres user's.
    assertEquals(d.get(1).out().isEmpty() ? "" : "public|items|table|postgres",
        dt.get(1).out());
    assertEquals("public|items|table|shardset", dt.get(0).out(), dt.get(0).err());
    // The model's schema as public, and ShardSet's own (SHARDSET.STATEMENTS, ...).
    assertEquals(List.of("public|shardset", "shardset|shardset"),
        psql(server, "-c", "\\dn").get(0).lines());
  }

  @ParameterizedTest @EnumSource(names = {"H2", "POSTGRES"})
  void pgjdbcsMetadataIsPostgresqls(Backend backend) throws Exception {
    final PgServerFixture server = SERVERS.get(backend);
    try (Connection shardSet = server.pg(""); Connection postgresql = postgresql()) {
      final List<List<String>> answers = new ArrayList<>();
      for (Connection c : List.of(shardSet, postgresql)) {
        final DatabaseMetaData metaData = c.getMetaData();
        answers.add(List.of(
            String.join("\n", columns(metaData.getTables(null, "public", "%",
                new String[] {"TABLE"}), "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE")),
            String.join("\n", columns(metaData.getColumns(null, "public", "items", "%"),
                "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS",
                "NULLABLE", "ORDINAL_POSITION")),
            String.join("\n", columns(metaData.getPrimaryKeys(null, "public", "items"),
                "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME")),
            String.join("\n", ShardFixture.rows(c, "SELECT column_name, ordinal_position,"
                + " is_nullable, data_type, character_maximum_length, numeric_precision,"
                + " numeric_scale, udt_name FROM information_schema.columns"
                + " WHERE table_name = 'items' ORDER BY ordinal_position"))));
      }
      assertEquals(answers.get(1), answers.get(0));
    }
  }

  private static List<String> columns(ResultSet rs, String... names) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        final List<String> row = new ArrayList<>();
        for (String name : names) {
          row.add(rs.getString(name));
        }
        rows.add(String.join("|", row));
      }
    }
    return rows;
  }
}
