package io.shardset.sequence;

import io.shardset.model.SequenceSpec;
import io.shardset.transaction.LogDatabase;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The global sequences of a process, one per store, schema and name whatever the number of
 * connections and model versions that use it, so that the process's values of a sequence
 * come from one block at a time.
 */
public final class SequenceRegistry {
  /** What tells sequences apart: their store's database, schema and name. */
  private record Key(String url, @Nullable String user, String schema, String name) {
  }

  private final Map<Key, GlobalSequence> byKey = new ConcurrentHashMap<>();
  private final Map<String, GlobalSequence> byId = new ConcurrentHashMap<>();

  /** Creates a registry without sequences. */
  public SequenceRegistry() {
  }

  /**
   * The process's sequence of a schema whose shared database is {@code store}.
   *
   * @param store the database every process of the schema shares: its catalog, or its
   *     decision log's
   */
  public GlobalSequence of(LogDatabase store, String schema, SequenceSpec spec) {
    Objects.requireNonNull(spec, "spec");
    final Key key = new Key(store.url(), store.user(), schema, spec.name());
    return byKey.computeIfAbsent(key, k -> {
      final GlobalSequence sequence = new GlobalSequence(schema + "." + spec.name() + "#"
          + (byKey.size() + 1), schema, spec, new SequenceStore(store));
      byId.put(sequence.id(), sequence);
      return sequence;
    });
  }

  /**
   * The sequence a plan names.
   *
   * @throws IllegalStateException if this process has none of that id (the plan was made
   *     by another runtime)
   */
  public GlobalSequence byId(String id) {
    final GlobalSequence sequence = byId.get(id);
    if (sequence == null) {
      throw new IllegalStateException("no sequence " + id + " in this process");
    }
    return sequence;
  }
}
