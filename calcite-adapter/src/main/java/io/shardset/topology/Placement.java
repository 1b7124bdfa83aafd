package io.shardset.topology;

import io.shardset.model.ReshardSpec;
import io.shardset.routing.ShardRouter;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;

/**
 * Where one version of the model places a table's rows, as {@link TablePlacement} answers it.
 *
 * @param version the model file's version, or -1 for a model that cannot change
 * @param router the router to use instead of the table's as built, numbered as the table
 *     numbers its shards; null when the table's is right
 * @param moveReaders the shards that read their move tables beside their tables (numbered as
 *     the table numbers them): a resharding in progress holds rows there
 * @param reshard the resharding in progress, or null
 * @param error why the table cannot be used under this version, or null
 */
public record Placement(long version, @Nullable ShardRouter router, BitSet moveReaders,
    @Nullable ReshardSpec reshard, @Nullable String error) {
  public Placement {
    moveReaders = (BitSet) moveReaders.clone();
  }

  /** Whether the table is used as it was built (and a plan runs as it was made). */
  public boolean isAsPlanned() {
    return router == null && moveReaders.isEmpty() && error == null;
  }

  /**
   * The router to use: this placement's, else the table's as built.
   *
   * @throws IllegalStateException with the error, if there is one
   */
  public @Nullable ShardRouter routerOr(@Nullable ShardRouter built) {
    if (error != null) {
      throw new IllegalStateException(error);
    }
    return router == null ? built : router;
  }
}
