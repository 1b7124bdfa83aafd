package io.shardset.calcite.prepare;

import io.shardset.calcite.ShardSchema;

import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.lookup.LikePattern;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;

/** Finds the ShardSet schemas among a connection's schemas. */
public final class ShardSchemas {
  private ShardSchemas() {
  }

  /** The ShardSet schemas of {@code schema} and of its sub-schemas, at any depth. */
  public static List<ShardSchema> under(SchemaPlus schema) {
    final List<ShardSchema> found = new ArrayList<>();
    collect(schema, found);
    return found;
  }

  private static void collect(SchemaPlus schema, List<ShardSchema> found) {
    final ShardSchema shardSchema = shardSchema(schema);
    if (shardSchema != null) {
      found.add(shardSchema);
    }
    for (String name : schema.subSchemas().getNames(LikePattern.any())) {
      final SchemaPlus sub = schema.subSchemas().get(name);
      if (sub != null) {
        collect(sub, found);
      }
    }
  }

  /** The ShardSet schema {@code schema} is, or null if it is another kind. */
  static @Nullable ShardSchema shardSchema(SchemaPlus schema) {
    try {
      return schema.unwrap(ShardSchema.class);
    } catch (ClassCastException e) {
      // Another kind of schema: Calcite's unwrap throws rather than answer null.
      return null;
    }
  }
}
