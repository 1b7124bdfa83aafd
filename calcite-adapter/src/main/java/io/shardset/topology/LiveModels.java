package io.shardset.topology;

import io.shardset.execution.ModelResources;
import io.shardset.model.CatalogSpec;
import io.shardset.model.ShardSetModel;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * The {@link LiveModel}s of a process, one per model file or catalog and schema, shared by
 * every connection that reads it; the resharding tool reaches those of model files through
 * {@link #publishAndDrain}. Models kept in a catalog are followed by a {@link CatalogFollower}
 * each, which registers the process in the catalog until {@link #close()}.
 */
public final class LiveModels implements AutoCloseable {
  /** The live models of model files; those of catalogs are their followers'. */
  private final Map<LiveModel.Key, LiveModel> models = new ConcurrentHashMap<>();
  private final Map<LiveModel.Key, CatalogFollower> followers = new ConcurrentHashMap<>();
  /** What this process is registered as in catalogs. */
  private final String processId = UUID.randomUUID().toString();
  private volatile String description = defaultDescription();

  /** Creates a registry with no live model. */
  public LiveModels() {
  }

  /** Names this process in the catalogs it registers in from now on, such as its address. */
  public void describeAs(String text) {
    description = defaultDescription() + " " + Objects.requireNonNull(text, "text");
  }

  private static String defaultDescription() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "localhost";
      }
    }
    return host + " pid " + ProcessHandle.current().pid();
  }

  /**
   * The live model of a schema kept in a catalog: the process registers there, reads the
   * newest version, and follows the catalog until {@code resources} (the model's pools, which
   * the caller holds open) close; once per catalog and schema while they are open.
   *
   * @param pointer the operand of the model file that points at the catalog
   * @throws IllegalArgumentException if the catalog cannot be read or holds no such schema
   */
  public LiveModel ofCatalog(String schema, CatalogSpec catalog, Map<String, ?> pointer,
      ModelResources resources) {
    LiveModel.Key key = new LiveModel.Key(catalog.identity(), schema);
    synchronized (followers) {
      CatalogFollower follower = followers.get(key);
      if (follower == null) {
        CatalogFollower started =
            CatalogFollower.start(key, catalog, pointer, processId, description);
        followers.put(key, started);
        // The last connection of the model gone, the process stops following and leaves
        // the catalog's registry: a move does not wait for a process that serves nothing.
        resources.closeWith(() -> {
          synchronized (followers) {
            followers.remove(key, started);
          }
          started.close();
        });
        follower = started;
      }
      return follower.live();
    }
  }

  /** Makes the followers of a catalog's schema look at it now. */
  public void wake(CatalogSpec catalog, String schema) {
    CatalogFollower follower = followers.get(new LiveModel.Key(catalog.identity(), schema));
    if (follower != null) {
      follower.wake();
    }
  }

  /** Stops following catalogs, leaving their registries. */
  @Override public void close() {
    synchronized (followers) {
      followers.values().forEach(CatalogFollower::close);
      followers.clear();
    }
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
        .filter(m -> file.equals(m.file())).toList();
    for (LiveModel model : matching) {
      model.refresh(true);
    }
    for (LiveModel model : matching) {
      model.drain(deadline);
    }
  }
}
