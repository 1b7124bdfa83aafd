package io.shardset.topology;

import java.util.Objects;

/**
 * Where a schema built from a model file follows that file: its live model, and the version
 * of the model the schema was built from.
 */
public record LiveSource(LiveModel model, long builtVersion) {
  public LiveSource {
    Objects.requireNonNull(model, "model");
  }
}
