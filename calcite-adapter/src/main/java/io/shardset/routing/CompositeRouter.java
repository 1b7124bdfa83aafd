package io.shardset.routing;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Routes by two levels (Oracle's composite sharding): the partition column's value picks a
 * partition set by list or range, the set names a shardspace, and the shardspace's consistent
 * hash of the shard key picks the shard.
 *
 * <p>Key column 0 is the partition column; key columns 1 to n are the shard key.
 */
public final class CompositeRouter implements ShardRouter {
  private final ShardRouter setRouter;
  private final List<Integer> spaceOfSet;
  private final List<Space> spaces;
  private final List<KeyType> keyTypes;
  private final int shardCount;

  /**
   * One shardspace of the table: its consistent-hash router, whose shards are the
   * shardspace's, and the table shard each of them is.
   */
  public record Space(HashRouter router, List<Integer> tableShards) {
    public Space {
      Objects.requireNonNull(router, "router");
      tableShards = List.copyOf(tableShards);
      if (tableShards.size() != router.shardCount()) {
        throw new IllegalArgumentException("a shardspace of " + router.shardCount()
            + " shards maps " + tableShards.size() + " to table shards");
      }
    }

    /** Whether rows of both spaces with equal shard keys land on the same table shard. */
    boolean placesAlike(Space other) {
      return router.keyTypes().equals(other.router.keyTypes())
          && router.chunkMap().equals(other.router.chunkMap())
          && tableShards.equals(other.tableShards);
    }
  }

  /**
   * Creates a router.
   *
   * @param setRouter routes the partition column's value to a partition set: its "shards"
   *     are the partition sets, numbered as {@code spaceOfSet} is
   * @param spaceOfSet the shardspace (an index into {@code spaces}) of each partition set
   * @param spaces the shardspaces, all with the same shard key types
   * @param shardCount the number of the table's shards
   */
  public CompositeRouter(ShardRouter setRouter, List<Integer> spaceOfSet, List<Space> spaces,
      int shardCount) {
    this.setRouter = Objects.requireNonNull(setRouter, "setRouter");
    this.spaceOfSet = List.copyOf(spaceOfSet);
    this.spaces = List.copyOf(spaces);
    this.shardCount = ShardSets.checkShardCount(shardCount);
    ShardSets.checkKeyArity(1, setRouter.keyTypes().size(), "partition column");
    if (setRouter.shardCount() != spaceOfSet.size()) {
      throw new IllegalArgumentException("the partition router has " + setRouter.shardCount()
          + " sets, but " + spaceOfSet.size() + " sets have a shardspace");
    }
    if (spaces.isEmpty()) {
      throw new IllegalArgumentException("a composite table needs at least one shardspace");
    }
    List<KeyType> shardKey = spaces.get(0).router().keyTypes();
    for (Space space : spaces) {
      if (!space.router().keyTypes().equals(shardKey)) {
        throw new IllegalArgumentException("shardspaces hash different key types: " + shardKey
            + " and " + space.router().keyTypes());
      }
      space.tableShards().forEach(shard -> ShardSets.checkShard(shard, shardCount,
          "a shardspace"));
    }
    for (int space : spaceOfSet) {
      if (space < 0 || space >= spaces.size()) {
        throw new IllegalArgumentException("a partition set names shardspace " + space
            + ", but the table's shardspaces are 0 to " + (spaces.size() - 1));
      }
    }
    List<KeyType> types = new ArrayList<>(setRouter.keyTypes());
    types.addAll(shardKey);
    this.keyTypes = List.copyOf(types);
  }

  @Override public List<KeyType> keyTypes() {
    return keyTypes;
  }

  @Override public int shardCount() {
    return shardCount;
  }

  /** Empty when no partition set takes the partition column's value. */
  @Override public OptionalInt shardOf(List<?> keyValues) {
    ShardSets.checkKeyArity(keyTypes.size(), keyValues.size(), "key value");
    OptionalInt set = setRouter.shardOf(keyValues.subList(0, 1));
    if (set.isEmpty()) {
      return OptionalInt.empty();
    }
    Space space = spaces.get(spaceOfSet.get(set.getAsInt()));
    int local = space.router().shardOf(keyValues.subList(1, keyValues.size())).getAsInt();
    return OptionalInt.of(space.tableShards().get(local));
  }

  /**
   * In each shardspace of a partition set the partition column's domain can match, the shards
   * the shard key's domain can reach there.
   */
  @Override public BitSet shardsFor(List<KeyDomain> perKeyColumn) {
    ShardSets.checkKeyArity(keyTypes.size(), perKeyColumn.size(), "key domain");
    BitSet sets = setRouter.shardsFor(perKeyColumn.subList(0, 1));
    BitSet reachedSpaces = new BitSet(spaces.size());
    sets.stream().forEach(set -> reachedSpaces.set(spaceOfSet.get(set)));
    List<KeyDomain> shardKey = perKeyColumn.subList(1, perKeyColumn.size());
    BitSet shards = new BitSet(shardCount);
    reachedSpaces.stream().forEach(index -> {
      Space space = spaces.get(index);
      space.router().shardsFor(shardKey).stream()
          .forEach(local -> shards.set(space.tableShards().get(local)));
    });
    return shards;
  }

  /**
   * Whether rows of this table and of {@code other} with equal partition values and shard
   * keys always live on the same table shard: the same partition sets in the same
   * shardspaces, each placing keys alike.
   */
  public boolean placesAlike(CompositeRouter other) {
    if (!setRouter.equals(other.setRouter) || !spaceOfSet.equals(other.spaceOfSet)
        || spaces.size() != other.spaces.size() || shardCount != other.shardCount) {
      return false;
    }
    for (int i = 0; i < spaces.size(); i++) {
      if (!spaces.get(i).placesAlike(other.spaces.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** The shardspace whose shards include all of {@code shards}, if one does. */
  public Optional<Space> spaceHolding(BitSet shards) {
    for (Space space : spaces) {
      BitSet outside = (BitSet) shards.clone();
      space.tableShards().forEach(outside::clear);
      if (outside.isEmpty()) {
        return Optional.of(space);
      }
    }
    return Optional.empty();
  }

  @Override public String toString() {
    return "CompositeRouter(" + setRouter + ", " + spaces.size() + " shardspaces, "
        + shardCount + " shards)";
  }
}
