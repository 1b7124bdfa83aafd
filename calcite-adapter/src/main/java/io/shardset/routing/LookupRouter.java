package io.shardset.routing;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Routes by a directory (lookup sharding): each key value lives on the shard its directory
 * entry names, and a key without an entry lives nowhere.
 *
 * <p>Placement changes when an entry changes (a tenant moves), so this router is not
 * {@linkplain #isStable() stable}: queries must route each time they execute.
 */
public final class LookupRouter implements ShardRouter {
  /** More keys than this are not looked up one by one: every shard is scanned instead. */
  public static final int MAX_LOOKUPS = 1024;

  private final String tableName;
  private final KeyType keyType;
  private final Directory directory;
  private final List<String> shardNames;

  /**
   * Creates a router.
   *
   * @param tableName the table's name, for errors
   * @param keyType the type of the lookup key column
   * @param directory the directory naming each key's shard
   * @param shardNames the table's shards, in shard order
   */
  public LookupRouter(String tableName, KeyType keyType, Directory directory,
      List<String> shardNames) {
    this.tableName = Objects.requireNonNull(tableName, "tableName");
    this.keyType = Objects.requireNonNull(keyType, "keyType");
    this.directory = Objects.requireNonNull(directory, "directory");
    this.shardNames = List.copyOf(shardNames);
    ShardSets.checkShardCount(this.shardNames.size());
  }

  @Override public List<KeyType> keyTypes() {
    return List.of(keyType);
  }

  @Override public int shardCount() {
    return shardNames.size();
  }

  public Directory directory() {
    return directory;
  }

  /**
   * Makes the next lookup of a key read the directory itself rather than a cached entry: call
   * it after moving the key to another shard, instead of waiting for the cache to expire.
   */
  public void invalidate(Object key) {
    Comparable<?> normalized = keyType.normalize(key);
    if (normalized != null) {
      directory.invalidate(normalized);
    }
  }

  @Override public boolean isStable() {
    return false;
  }

  /**
   * The shard the directory names; empty for NULL and for a key without an entry.
   *
   * @throws IllegalStateException if the entry names a shard the table does not have
   */
  @Override public OptionalInt shardOf(List<?> keyValues) {
    ShardSets.checkKeyArity(1, keyValues.size(), "key value");
    Comparable<?> key = keyType.normalize(keyValues.get(0));
    return key == null ? OptionalInt.empty() : lookUp(key);
  }

  /**
   * The shards of each key when the domain is a finite set of at most {@link #MAX_LOOKUPS}
   * points; otherwise every shard, since the directory can place any key anywhere.
   */
  @Override public BitSet shardsFor(List<KeyDomain> perKeyColumn) {
    ShardSets.checkKeyArity(1, perKeyColumn.size(), "key domain");
    KeyDomain domain = perKeyColumn.get(0);
    Optional<List<Comparable<?>>> points = domain.finitePoints();
    if (points.isEmpty() || points.get().size() > MAX_LOOKUPS) {
      return ShardSets.all(shardCount());
    }
    // NULL has no entry: a row with a NULL key cannot be placed, so none is stored.
    BitSet shards = new BitSet(shardCount());
    for (Comparable<?> key : points.get()) {
      lookUp(key).ifPresent(shards::set);
    }
    return shards;
  }

  private OptionalInt lookUp(Comparable<?> key) {
    Optional<String> name = directory.shardOf(key);
    if (name.isEmpty()) {
      return OptionalInt.empty();
    }
    int shard = shardNames.indexOf(name.get());
    if (shard < 0) {
      throw new IllegalStateException("the directory of table " + tableName + " places key "
          + keyType.format(key) + " on shard '" + name.get() + "', which does not hold the"
          + " table; its shards are " + String.join(", ", shardNames));
    }
    return OptionalInt.of(shard);
  }

  @Override public String toString() {
    return "LookupRouter(" + keyType + ", " + shardNames.size() + " shards)";
  }
}
