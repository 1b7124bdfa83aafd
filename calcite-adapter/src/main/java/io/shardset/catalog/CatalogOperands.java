package io.shardset.catalog;

import io.shardset.model.CatalogSpec;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A schema's model as a catalog keeps it, for the processes that open it: the newest version,
 * and a version's operand and validated model, with the folder of the file that points at the
 * catalog as its {@code ${modelDir}}.
 */
public final class CatalogOperands {
  private CatalogOperands() {
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
