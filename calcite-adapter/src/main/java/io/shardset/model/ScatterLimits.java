package io.shardset.model;

import java.util.Map;
import java.util.Objects;

/**
 * A schema's scatter guardrails: the schema's own limit and the tables that set theirs. A
 * table's setting replaces the schema's whole (a table that says {@code "scatter": "allow"}
 * has no maximum, whatever the schema's).
 *
 * @param schema the limit of the tables that set none
 * @param tables the limits of the tables that set one, by table name
 */
public record ScatterLimits(ScatterLimit schema, Map<String, ScatterLimit> tables) {
  /** No limit anywhere. */
  public static final ScatterLimits NONE = new ScatterLimits(ScatterLimit.NONE, Map.of());

  public ScatterLimits {
    Objects.requireNonNull(schema, "schema");
    tables = Map.copyOf(tables);
  }

  /** The limit of a table. */
  public ScatterLimit of(String table) {
    return tables.getOrDefault(table, schema);
  }
}
