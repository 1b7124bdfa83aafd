package io.shardset.cli.server.pg;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a PostgreSQL session's root schema holds beside the model's: the default schema as
 * {@code public} too, PostgreSQL's type names, {@code pg_catalog}, {@code information_schema}
 * and the catalog's functions. The schemas and functions keep nothing of a session (see
 * {@link io.shardset.calcite.prepare.StatelessSchema}), so one listener makes them once and
 * puts them in every session.
 */
final class PgSessionSchemas {
  /** The name PostgreSQL's clients give the default schema. */
  static final String PUBLIC = "public";

  private final PgCatalogSchema catalog = new PgCatalogSchema();
  private final PgInformationSchema information = new PgInformationSchema();
  private final List<Map.Entry<String, Function>> functions = PgCatalogFunctions.all();

  /** Puts the schemas, types and functions in a session's connection. */
  void install(Connection connection) throws SQLException {
    aliasDefaultSchema(connection);
    final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
    PgTypeNames.addTo(root);
    final SchemaPlus catalogPlus = root.add("pg_catalog", catalog);
    PgTypeNames.addTo(catalogPlus);
    for (Map.Entry<String, Function> function : functions) {
      root.add(function.getKey(), function.getValue());
      catalogPlus.add(function.getKey(), function.getValue());
    }
    // PostgreSQL looks in pg_catalog before the search path: clients name its tables bare
    // (psycopg2's "FROM pg_type t JOIN pg_namespace ns").
    for (Map.Entry<String, Table> table : catalog.tableMap().entrySet()) {
      if (root.tables().get(table.getKey()) == null) {
        root.add(table.getKey(), table.getValue());
      }
    }
    root.add("information_schema", information);
  }

  /**
   * Makes the model's default schema answer to {@code public} too, where PostgreSQL's clients
   * and tools look for tables ({@code "public"."orders"}), unless a schema has that name.
   */
  private static void aliasDefaultSchema(Connection connection) throws SQLException {
    final String schema = connection.getSchema();
    if (schema == null) {
      return;
    }
    final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
    final SchemaPlus defaultSchema = root.subSchemas().get(schema);
    if (defaultSchema == null || root.subSchemas().get(PUBLIC) != null
        || root.subSchemas().get(PUBLIC.toUpperCase(Locale.ROOT)) != null) {
      return;
    }
    root.add(PUBLIC, CalciteSchema.from(defaultSchema).schema);
  }
}
