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
          + " object, each time atomically, or, where the file points at a catalog, writes"
          + " each change there as a new version.")
  private Path model;

  @Option(names = "--schema", paramLabel = "NAME",
      description = "The ShardSet schema; default: the model's only ShardSet schema, or its"
          + " defaultSchema.")
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
   * @throws IllegalArgumentException if the model has no such schema, or several ShardSet
   *     schemas and names none of them as its default
   */
  String schema(ModelFile file) {
    final List<String> schemas = file.schemas();
    final String name = schema != null ? schema : file.shardSetSchema();
    if (!schemas.contains(name)) {
      throw new IllegalArgumentException("the model has no schema '" + name + "'; schemas are "
          + schemas);
    }
    return name;
  }
}
