package io.shardset.calcite;

import io.shardset.calcite.plan.ShardTableScan;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardingMethod;
import io.shardset.model.Subpartitioning;
import io.shardset.model.TableLayout;
import io.shardset.model.TableSpec;
import io.shardset.routing.CompositeRouter;
import io.shardset.routing.HashRouter;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A logical table whose rows are spread over shards: users query it as one table, and
 * {@link #toRel} gives the planner a single scan for it, whatever the number of shards.
 */
public final class ShardTable extends AbstractTable implements TranslatableTable {
  private final String schemaName;
  private final TableSpec spec;
  private final TableLayout layout;
  private final @Nullable ShardRouter router;
  private final List<ShardSite> sites;
  /** Shard name to index: planning asks once per shard, so a search would cost N squared. */
  private final Map<String, Integer> shardIndexes;
  private final List<Integer> keyColumns;
  private final @Nullable Integer parallelism;
  private final @Nullable Subpartitioning subpartitioning;
  private final @Nullable LiveSource live;
  private final @Nullable ReshardSpec reshard;
  private final SqlDialect.@Nullable DatabaseProduct product;
  private final OpenScans openScans;

  ShardTable(String schemaName, TableSpec spec, TableLayout layout,
      @Nullable ShardRouter router, List<ShardSite> sites, @Nullable Integer parallelism,
      @Nullable Subpartitioning subpartitioning, @Nullable LiveSource live,
      @Nullable ReshardSpec reshard, OpenScans openScans) {
    this.schemaName = Objects.requireNonNull(schemaName, "schemaName");
    this.spec = Objects.requireNonNull(spec, "spec");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.router = router;
    this.sites = List.copyOf(sites);
    final Map<String, Integer> indexes = new HashMap<>();
    for (int i = 0; i < this.sites.size(); i++) {
      indexes.putIfAbsent(this.sites.get(i).name(), i);
    }
    this.shardIndexes = Map.copyOf(indexes);
    this.keyColumns = spec.routingKey().stream().map(layout::columnIndex).toList();
    this.parallelism = parallelism;
    this.subpartitioning = subpartitioning;
    this.live = live;
    this.reshard = reshard;
    this.product = product(this.sites);
    this.openScans = Objects.requireNonNull(openScans, "openScans");
    if ((subpartitioning == null) != (spec.subpartitions() == null)) {
      throw new IllegalArgumentException("table " + spec.name()
          + " needs subpartitioning exactly when its model declares subpartitions");
    }
    if (router == null && spec.method() != ShardingMethod.DUPLICATED) {
      throw new IllegalArgumentException("table " + spec.name() + " needs a router");
    }
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return ColumnTypes.rowType(typeFactory, layout.columns());
  }

  @Override public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return ShardTableScan.create(context.getCluster(), relOptTable, this);
  }

  /** The name users query, qualified by the schema, e.g. {@code SALES.ORDERS}. */
  public String qualifiedName() {
    return schemaName + "." + spec.name();
  }

  public TableSpec spec() {
    return spec;
  }

  /** The logical columns, and the physical table on each shard. */
  public TableLayout layout() {
    return layout;
  }

  /** Whether every shard holds every row (a reference table). */
  public boolean isDuplicated() {
    return spec.method() == ShardingMethod.DUPLICATED;
  }

  /**
   * Whether rows of this table and of {@code other} with equal shard keys always live on the
   * same shard: both are consistent-hash tables over the same shards with the same chunk
   * placement and key types (a table family).
   */
  public boolean isColocatedWith(ShardTable other) {
    if (this == other) {
      return true;
    }
    if (!shardNames().equals(other.shardNames())) {
      return false;
    }
    if (router instanceof CompositeRouter mine && other.router instanceof CompositeRouter theirs) {
      // Equal partition values go to the same set and shardspace, equal keys to one shard.
      return mine.placesAlike(theirs);
    }
    return spec.method() == ShardingMethod.CONSISTENT_HASH
        && other.spec.method() == ShardingMethod.CONSISTENT_HASH
        && router instanceof HashRouter mine && other.router instanceof HashRouter theirs
        && mine.keyTypes().equals(theirs.keyTypes())
        && mine.chunkMap().equals(theirs.chunkMap());
  }

  /**
   * Whether this composite table's rows on {@code shards} are placed by their shard key as the
   * rows of consistent-hash table {@code other} are: the shards lie in one shardspace, which
   * is {@code other}'s, with the same key types and chunk placement. Rows on other shards
   * (other shardspaces) are placed by other chunk layouts, so this says nothing about them.
   */
  public boolean isColocatedWithin(BitSet shards, ShardTable other) {
    if (!(router instanceof CompositeRouter composite)
        || other.spec.method() != ShardingMethod.CONSISTENT_HASH
        || !(other.router instanceof HashRouter hash)) {
      return false;
    }
    return composite.spaceHolding(shards)
        .filter(space -> space.router().keyTypes().equals(hash.keyTypes())
            && space.router().chunkMap().equals(hash.chunkMap())
            && space.tableShards().stream().map(this::shardName).toList()
                .equals(other.shardNames()))
        .isPresent();
  }

  /** The names of the table's shards, in order. */
  public List<String> shardNames() {
    return sites.stream().map(ShardSite::name).toList();
  }

  /** The table's shard with the given name, or -1 if the table has none of that name. */
  public int shardIndex(String name) {
    return shardIndexes.getOrDefault(name, -1);
  }

  /** The shard a duplicated table is read from. */
  public int readShard() {
    return 0;
  }

  /** The table's router; null for duplicated tables. */
  public @Nullable ShardRouter router() {
    return router;
  }

  /** The table column index of each routing key column, in key order: the shard key, after
   * the partition column of a composite table (see {@link TableSpec#routingKey()}). */
  public List<Integer> keyColumns() {
    return keyColumns;
  }

  /** The routing type of each routing key column. */
  public List<KeyType> keyTypes() {
    return router == null ? List.of() : router.keyTypes();
  }

  public int shardCount() {
    return sites.size();
  }

  public ShardSite site(int shard) {
    return sites.get(shard);
  }

  /**
   * The database product of every shard, or null where the shards are of several: asked while
   * planning, so computed once.
   */
  public SqlDialect.@Nullable DatabaseProduct product() {
    return product;
  }

  private static SqlDialect.@Nullable DatabaseProduct product(List<ShardSite> sites) {
    final Set<SqlDialect.DatabaseProduct> products = new HashSet<>();
    for (ShardSite site : sites) {
      products.add(site.dialect().getDatabaseProduct());
    }
    return products.size() == 1 ? products.iterator().next() : null;
  }

  public String shardName(int shard) {
    return sites.get(shard).name();
  }

  /** How each shard splits the table into subpartition tables; null if it does not. */
  public @Nullable Subpartitioning subpartitioning() {
    return subpartitioning;
  }

  /** The model file the schema follows, or null for a model that cannot change. */
  public @Nullable LiveSource live() {
    return live;
  }

  /**
   * The resharding in progress as the model says now: the live model's when the schema
   * follows a model file, else the one recorded when the schema was built; null when none.
   */
  public @Nullable ReshardSpec reshard() {
    return live == null ? reshard : live.model().current().model().reshard();
  }

  /** The schema's name. */
  public String schemaName() {
    return schemaName;
  }

  /** The schema's {@code parallelism} setting, or null for the default. */
  public @Nullable Integer parallelism() {
    return parallelism;
  }

  /** Where the scans of this table are tracked until their statement or connection closes. */
  public OpenScans openScans() {
    return openScans;
  }
}
