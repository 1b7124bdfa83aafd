package io.shardset.topology;

import io.shardset.model.ShardSetModel;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * The {@link LiveModel}s of a process, one per model file and schema, shared by every
 * connection that reads that file; the resharding tool reaches them all through
 * {@link #publishAndDrain}.
 */
public final class LiveModels {
  private final Map<LiveModel.Key, LiveModel> models = new ConcurrentHashMap<>();

  /** Creates a registry with no live model. */
  public LiveModels() {
  }

  /**
   * The live model of a schema whose operand Calcite read from a model file (the operand's
   * {@code modelUri}); null for an inline model, which cannot change.
   *
   * @param initial the model parsed from the operand at connect time
   */
  public LiveModel of(String schema, Map<String, ?> operand, ShardSetModel initial) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(initial, "initial");
    // Only JSON model files are rewritten while servers run (see the resharding design).
    if (!(operand.get("modelUri") instanceof String uri) || uri.startsWith("inline:")
        || uri.toLowerCase(Locale.ROOT).matches(".*\\.ya?ml")) {
      return null;
    }
    LiveModel.Key key = new LiveModel.Key(path(uri), schema);
    LiveModel live = models.computeIfAbsent(key, k -> new LiveModel(k, uri, initial));
    if (!live.holds(initial)) {
      // The connection read a newer file than the last look at it: look again now.
      live.refresh(false);
    }
    return live;
  }

  /** The model file a {@code modelUri} names, absolute and normalized. */
  private static Path path(String uri) {
    Path path = uri.startsWith("file:") ? Path.of(URI.create(uri)) : Path.of(uri);
    return path.toAbsolutePath().normalize();
  }

  /**
   * Makes every live model of this registry that reads {@code modelFile} re-read it now, then
   * waits until no execution that entered under an older snapshot is still running.
   *
   * @throws TimeoutException if such executions still run after {@code timeout}; the message
   *     says how many
   */
  public void publishAndDrain(Path modelFile, Duration timeout)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Path file = modelFile.toAbsolutePath().normalize();
    List<LiveModel> matching = models.values().stream()
        .filter(m -> m.file().equals(file)).toList();
    for (LiveModel model : matching) {
      model.refresh(true);
    }
    for (LiveModel model : matching) {
      model.drain(deadline);
    }
  }
}
