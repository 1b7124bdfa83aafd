package io.shardset.calcite;

import io.shardset.calcite.guard.ScatterWarnings;
import io.shardset.calcite.plan.ShardTableModify;
import io.shardset.calcite.plan.ShardTableScan;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ScatterLimit;
import io.shardset.model.Subpartitioning;
import io.shardset.model.TableLayout;
import io.shardset.model.TableSpec;
import io.shardset.routing.KeyType;
import io.shardset.routing.ShardRouter;
import io.shardset.sequence.GlobalSequence;
import io.shardset.session.Sessions;
import io.shardset.topology.LiveSource;
import io.shardset.topology.ShardSite;
import io.shardset.topology.ShardedTable;
import io.shardset.transaction.TransactionCoordinator;

import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.Queryable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ModifiableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Schemas;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Type;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * A logical table whose rows are spread over shards, as Calcite sees it: users query it as
 * one table, and {@link #toRel} gives the planner a single scan for it, whatever the number of
 * shards. What the table is ({@link ShardedTable}) and the SQL dialect of each of its shards
 * are what the planner reads.
 */
public final class ShardTable extends AbstractTable implements TranslatableTable,
    ModifiableTable {
  private final ShardedTable table;
  private final List<SqlDialect> dialects;
  private final SqlDialect.@Nullable DatabaseProduct product;
  private final OpenScans openScans;
  private final Sessions sessions;
  private final TransactionCoordinator coordinator;
  private final TableStatistic statistic;
  private final ScatterLimit scatterLimit;
  private final List<String> modelShardNames;
  private final ScatterWarnings scatterWarnings = new ScatterWarnings();
  private final ShardColumnDefaults columnDefaults;
  private final ShardColumnDistincts columnDistincts;

  /**
   * Creates the Calcite face of a table.
   *
   * @param dialects the SQL dialect of each of the table's shards, in its shard order
   * @param openScans where the table's scans are tracked until their statement or connection
   *     closes
   * @param sessions finds the session of the connection a statement runs on
   * @param coordinator begins the transactions that write to the table's shards
   * @param statistic what the planner knows of the table's rows
   * @param scatterLimit how many of its shards one statement may reach, as the model says
   * @param modelShardNames the names of every shard of the model, the table's or not
   * @param columnSequences the sequence of each column that takes a sequence's values when an
   *     INSERT leaves it out, by column position
   */
  ShardTable(ShardedTable table, List<SqlDialect> dialects, OpenScans openScans,
      Sessions sessions, TransactionCoordinator coordinator, TableStatistic statistic,
      ScatterLimit scatterLimit, List<String> modelShardNames,
      Map<Integer, GlobalSequence> columnSequences) {
    this.table = Objects.requireNonNull(table, "table");
    this.scatterLimit = Objects.requireNonNull(scatterLimit, "scatterLimit");
    this.modelShardNames = List.copyOf(modelShardNames);
    this.statistic = Objects.requireNonNull(statistic, "statistic");
    this.dialects = List.copyOf(dialects);
    this.openScans = Objects.requireNonNull(openScans, "openScans");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    if (this.dialects.size() != table.shardCount()) {
      throw new IllegalArgumentException("table " + table.qualifiedName() + " has "
          + table.shardCount() + " shards, not " + this.dialects.size());
    }
    this.product = product(this.dialects);
    this.columnDefaults = new ShardColumnDefaults(table.layout().columns(), columnSequences);
    this.columnDistincts = new ShardColumnDistincts(this.statistic);
  }

  /**
   * The table as Calcite's planner asks for it, what its INSERTs leave out for the shards
   * to fill ({@link ShardColumnDefaults}), and its columns' distinct values
   * ({@link ShardColumnDistincts}).
   */
  @Override public <C extends Object> @Nullable C unwrap(Class<C> aClass) {
    if (aClass == InitializerExpressionFactory.class) {
      return aClass.cast(columnDefaults);
    }
    if (aClass == BuiltInMetadata.DistinctRowCount.Handler.class) {
      return aClass.cast(columnDistincts);
    }
    return super.unwrap(aClass);
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return ColumnTypes.rowType(typeFactory, table.layout().columns());
  }

  /** The table's row count as its shards estimate it, read on first use (see
   * {@link ShardStatistic}). */
  @Override public Statistic getStatistic() {
    return statistic;
  }

  /** The distinct values of a column over the table, where its shards' statistics say (see
   * {@link ShardStatistic}); empty when not known. */
  public OptionalDouble distinctValues(int column) {
    return statistic.distinctValues(column);
  }

  @Override public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return ShardTableScan.create(context.getCluster(), relOptTable, this,
        context.getTableHints());
  }

  /**
   * The change of this table a DML statement makes: a {@link ShardTableModify}, which the
   * planner turns into a write routed row by row to the shards.
   */
  @Override public TableModify toModificationRel(RelOptCluster cluster, RelOptTable relOptTable,
      Prepare.CatalogReader catalogReader, RelNode child, TableModify.Operation operation,
      @Nullable List<String> updateColumnList, @Nullable List<RexNode> sourceExpressionList,
      boolean flattened) {
    return ShardTableModify.create(relOptTable, catalogReader, child, operation,
        updateColumnList, sourceExpressionList, flattened, this);
  }

  /** Not used: writes go through {@link #toModificationRel}, never to a collection. */
  @Override public @Nullable Collection<?> getModifiableCollection() {
    return null;
  }

  /** Not used: the table is read through {@link #toRel}, never as a Queryable. */
  @Override public <T> Queryable<T> asQueryable(QueryProvider queryProvider, SchemaPlus schema,
      String tableName) {
    throw new UnsupportedOperationException("table " + table.qualifiedName()
        + " is read through its shards' scans");
  }

  @Override public Type getElementType() {
    return Object[].class;
  }

  @Override public Expression getExpression(SchemaPlus schema, String tableName,
      Class clazz) {
    return Schemas.tableExpression(schema, getElementType(), tableName, clazz);
  }

  /** How many of its shards one statement may reach, as the model says; a connection's
   * setting replaces it. */
  public ScatterLimit scatterLimit() {
    return scatterLimit;
  }

  /** The statement shapes whose scatter warning was logged for this table. */
  public ScatterWarnings scatterWarnings() {
    return scatterWarnings;
  }

  /** The names of every shard of the model, in model order: what a hint may name. */
  public List<String> modelShardNames() {
    return modelShardNames;
  }

  /** The resolved table behind this one: what loading and resharding work with. */
  public ShardedTable sharded() {
    return table;
  }

  /** The SQL dialect of one of the table's shards. */
  public SqlDialect dialect(int shard) {
    return dialects.get(shard);
  }

  /**
   * The database product of every shard, or null where the shards are of several: asked while
   * planning, so computed once.
   */
  public SqlDialect.@Nullable DatabaseProduct product() {
    return product;
  }

  private static SqlDialect.@Nullable DatabaseProduct product(List<SqlDialect> dialects) {
    final Set<SqlDialect.DatabaseProduct> products = new HashSet<>();
    for (SqlDialect dialect : dialects) {
      products.add(dialect.getDatabaseProduct());
    }
    return products.size() == 1 ? products.iterator().next() : null;
  }

  /** See {@link ShardedTable#qualifiedName()}. */
  public String qualifiedName() {
    return table.qualifiedName();
  }

  public TableSpec spec() {
    return table.spec();
  }

  /** See {@link ShardedTable#layout()}. */
  public TableLayout layout() {
    return table.layout();
  }

  /** See {@link ShardedTable#isDuplicated()}. */
  public boolean isDuplicated() {
    return table.isDuplicated();
  }

  /** See {@link ShardedTable#isColocatedWith}. */
  public boolean isColocatedWith(ShardTable other) {
    return table.isColocatedWith(other.table);
  }

  /** See {@link ShardedTable#isColocatedWithin}. */
  public boolean isColocatedWithin(BitSet shards, ShardTable other) {
    return table.isColocatedWithin(shards, other.table);
  }

  /** See {@link ShardedTable#shardNames()}. */
  public List<String> shardNames() {
    return table.shardNames();
  }

  /** See {@link ShardedTable#shardIndex(String)}. */
  public int shardIndex(String name) {
    return table.shardIndex(name);
  }

  /** See {@link ShardedTable#readShard()}. */
  public int readShard() {
    return table.readShard();
  }

  /** See {@link ShardedTable#router()}. */
  public @Nullable ShardRouter router() {
    return table.router();
  }

  /** See {@link ShardedTable#keyColumns()}. */
  public List<Integer> keyColumns() {
    return table.keyColumns();
  }

  /** See {@link ShardedTable#keyTypes()}. */
  public List<KeyType> keyTypes() {
    return table.keyTypes();
  }

  public int shardCount() {
    return table.shardCount();
  }

  public ShardSite site(int shard) {
    return table.site(shard);
  }

  public String shardName(int shard) {
    return table.shardName(shard);
  }

  /** See {@link ShardedTable#subpartitioning()}. */
  public @Nullable Subpartitioning subpartitioning() {
    return table.subpartitioning();
  }

  /** See {@link ShardedTable#live()}. */
  public @Nullable LiveSource live() {
    return table.live();
  }

  /** See {@link ShardedTable#reshard()}. */
  public @Nullable ReshardSpec reshard() {
    return table.reshard();
  }

  /** The schema's name. */
  public String schemaName() {
    return table.schemaName();
  }

  /** See {@link ShardedTable#parallelism()}. */
  public @Nullable Integer parallelism() {
    return table.parallelism();
  }

  /** Where the scans of this table are tracked until their statement or connection closes. */
  public OpenScans openScans() {
    return openScans;
  }

  /** Finds the session of the connection a statement on this table runs on. */
  public Sessions sessions() {
    return sessions;
  }

  /** Begins the transactions that write to the table's shards. */
  public TransactionCoordinator coordinator() {
    return coordinator;
  }
}
