package io.shardset.cli;

import io.shardset.calcite.ShardSchema;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.File;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Opens a model file as Calcite does, and finds a ShardSet schema in it. */
final class ShardSchemas {
  private ShardSchemas() {
  }

  /** A Calcite connection on a model file. */
  static Connection connect(File model) throws SQLException {
    final Properties info = new Properties();
    // In the properties, not the URL: URLs split on ';', which H2 URLs contain.
    info.setProperty("model", model.getAbsolutePath());
    return DriverManager.getConnection("jdbc:calcite:", info);
  }

  /**
   * The ShardSet schema of that name, or the model's default schema.
   *
   * @throws IllegalArgumentException if there is no such ShardSet schema
   */
  static ShardSchema find(Connection connection, @Nullable String name) throws SQLException {
    final CalciteConnection calcite = connection.unwrap(CalciteConnection.class);
    final String schemaName = name != null ? name : calcite.getSchema();
    final SchemaPlus root = calcite.getRootSchema();
    if (schemaName == null) {
      throw new IllegalArgumentException("the model has no defaultSchema; name one with"
          + " --schema; schemas are " + root.subSchemas().getNames(
              org.apache.calcite.schema.lookup.LikePattern.any()));
    }
    final SchemaPlus schema = root.subSchemas().get(schemaName);
    ShardSchema shards = null;
    try {
      shards = schema == null ? null : schema.unwrap(ShardSchema.class);
    } catch (ClassCastException e) {
      // Another kind of schema: reported below like a missing one.
    }
    if (shards == null) {
      throw new IllegalArgumentException("the model has no ShardSet schema '" + schemaName
          + "'; schemas are " + root.subSchemas().getNames(
              org.apache.calcite.schema.lookup.LikePattern.any()));
    }
    return shards;
  }
}
