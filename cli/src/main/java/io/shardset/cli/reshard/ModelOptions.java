package io.shardset.cli.reshard;

import io.shardset.reshard.ModelFile;

import org.checkerframework.checker.nullness.qual.Nullable;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

/** The model file a reshard command edits, and which of its schemas. */
public final class ModelOptions {
  @Option(names = "--model", required = true, paramLabel = "FILE",
      description = "The model file (JSON); apply rewrites its chunkMap, shards and reshard"
          + " object, each time atomically.")
  private Path model;

  @Option(names = "--schema", paramLabel = "NAME",
      description = "The ShardSet schema; default: the model's defaultSchema, or its only"
          + " schema.")
  private @Nullable String schema;

  /** The model file. */
  Path path() {
    return model;
  }

  /** Reads the model file. */
  ModelFile read() {
    return ModelFile.read(model);
  }

  /**
   * The schema the command works on.
   *
   * @throws IllegalArgumentException if the model names none or has no such schema
   */
  String schema(ModelFile file) {
    final List<String> schemas = file.schemas();
    final String name = schema != null ? schema
        : file.defaultSchema() != null ? file.defaultSchema()
        : schemas.size() == 1 ? schemas.get(0) : null;
    if (name == null) {
      throw new IllegalArgumentException("the model has no defaultSchema; name one with"
          + " --schema; schemas are " + schemas);
    }
    if (!schemas.contains(name)) {
      throw new IllegalArgumentException("the model has no schema '" + name + "'; schemas are "
          + schemas);
    }
    return name;
  }
}
