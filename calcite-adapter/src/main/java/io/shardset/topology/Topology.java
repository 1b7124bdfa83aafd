package io.shardset.topology;

import io.shardset.execution.ExecutionRuntime;
import io.shardset.execution.ModelResources;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a process knows of its models and their shards: the models that follow model files
 * ({@link LiveModels}), the table layouts last read from each shard ({@link KnownLayouts}),
 * and tables resolved outside any connection, for the loader and the resharding tool, on
 * pools that stay open until the execution runtime closes.
 *
 * <p>Thread-safe. The process's {@code ShardSetRuntime} holds one.
 */
public final class Topology implements AutoCloseable {
  /** Which model tables resolved outside a connection belong to: its name and shards. */
  private record PinnedModel(String schema, List<ShardSpec> shards) {
  }

  private final ExecutionRuntime execution;
  private final LiveModels liveModels = new LiveModels();
  private final KnownLayouts knownLayouts = new KnownLayouts();

  /** Creates the topology of a process whose pools {@code execution} owns. */
  public Topology(ExecutionRuntime execution) {
    this.execution = Objects.requireNonNull(execution, "execution");
  }

  /** The models that follow model files. */
  public LiveModels liveModels() {
    return liveModels;
  }

  /** The layouts last read from each shard, shared by every table this process resolves. */
  public KnownLayouts knownLayouts() {
    return knownLayouts;
  }

  /**
   * The pools and directories of a model used outside any connection (by the loader or the
   * resharding tool): shared by every such use of the same shards, open until the execution
   * runtime closes.
   */
  public ModelResources pinned(ShardSetModel model) {
    return execution.pin(new PinnedModel(model.schema(), List.copyOf(model.shards())));
  }

  /**
   * Reads every table's layout from its shards and resolves the model's tables, in model
   * order, on the model's pinned pools (see {@link #pinned}). A shard that cannot be reached
   * contributes the layout an earlier read of this process found.
   */
  public Map<String, ShardedTable> tables(ShardSetModel model) {
    try (ShardLayouts layouts = new JdbcShardLayouts(model, pinned(model), knownLayouts)) {
      return ShardedTableResolver.resolve(model, null, layouts);
    }
  }

  /** Stops following catalogs (see {@link LiveModels#close()}). */
  @Override public void close() {
    liveModels.close();
  }
}
