package io.shardset.catalog;

import io.shardset.model.CatalogSpec;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The operand a ShardSet schema is built from: the model file's own, or, where it points at a
 * catalog, the newest version the catalog keeps of the schema.
 */
public final class CatalogOperands {
  private CatalogOperands() {
  }

  /**
   * The operand of schema {@code schema}: {@code operand} itself, or the catalog's newest
   * version of the schema, with the pointing file's folder as its {@code ${modelDir}}.
   *
   * @throws IllegalArgumentException if the catalog cannot be read or holds no such schema;
   *     the message names the catalog by URL and user, never its password
   */
  public static Map<String, Object> resolve(String schema, Map<String, Object> operand,
      UnaryOperator<String> env) {
    final CatalogSpec spec = ModelParser.catalog(schema, operand, env);
    if (spec == null) {
      return operand;
    }
    final ModelCatalog.Version version = newest(spec, schema);
    return operand(version, operand);
  }

  /**
   * The newest version of a schema in a catalog.
   *
   * @throws IllegalArgumentException if the catalog cannot be read or holds no such schema;
   *     the message names the catalog by URL and user, never its password
   */
  public static ModelCatalog.Version newest(CatalogSpec spec, String schema) {
    try {
      return ModelCatalog.of(spec).newest(schema);
    } catch (SQLException e) {
      throw new IllegalArgumentException("cannot read the model of schema '" + schema
          + "' from the " + spec + ": " + e.getMessage(), e);
    }
  }

  /**
   * The operand of a version of the catalog, with the folder of the file that points at it
   * ({@code pointer}, the operand Calcite read from that file) as its {@code ${modelDir}}.
   */
  public static Map<String, Object> operand(ModelCatalog.Version version,
      Map<String, ?> pointer) {
    final Map<String, Object> resolved = new LinkedHashMap<>(ModelDocuments.operand(version));
    final Object folder = pointer.get("baseDirectory");
    if (folder != null) {
      resolved.put("baseDirectory", folder);
    }
    return resolved;
  }

  /** The validated model of a version of the catalog (see {@link #operand}). */
  public static ShardSetModel model(ModelCatalog.Version version, Map<String, ?> pointer,
      UnaryOperator<String> env) {
    return ModelParser.parse(version.schema(), operand(version, pointer), env);
  }
}
