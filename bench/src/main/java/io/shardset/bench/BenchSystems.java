package io.shardset.bench;

import io.shardset.bench.shardingsphere.ShardingSphereSystem;
import io.shardset.calcite.ShardSchema;
import io.shardset.routing.ShardRouter;

import org.apache.calcite.jdbc.CalciteConnection;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The open connections of the compared systems over one {@link BenchDatabase}: L (the
 * unsharded database), D (each shard directly, routed with ShardSet's router), N (Calcite's
 * JDBC adapter), X (ShardSet) and S (ShardingSphere-JDBC).
 */
public final class BenchSystems implements AutoCloseable {
  private final Connection unsharded;
  private final List<Connection> shards;
  private final ShardRouter ordersRouter;
  private final ShardRouter writeRouter;
  private final Connection unionAll;
  private final Connection shardSet;
  private final ShardingSphereSystem shardingSphere;
  private final Connection shardingSphereConnection;

  private BenchSystems(Connection unsharded, List<Connection> shards, ShardRouter ordersRouter,
      ShardRouter writeRouter, Connection unionAll, Connection shardSet,
      ShardingSphereSystem shardingSphere, Connection shardingSphereConnection) {
    this.unsharded = Objects.requireNonNull(unsharded, "unsharded");
    this.shards = List.copyOf(shards);
    this.ordersRouter = Objects.requireNonNull(ordersRouter, "ordersRouter");
    this.writeRouter = Objects.requireNonNull(writeRouter, "writeRouter");
    this.unionAll = Objects.requireNonNull(unionAll, "unionAll");
    this.shardSet = Objects.requireNonNull(shardSet, "shardSet");
    this.shardingSphere = Objects.requireNonNull(shardingSphere, "shardingSphere");
    this.shardingSphereConnection =
        Objects.requireNonNull(shardingSphereConnection, "shardingSphereConnection");
  }

  /**
   * Opens every system's connection, after creating the write workloads' table
   * ({@link WriteTable}) anew on every shard: X and S have it in their configuration and look
   * it up in the shards when they open.
   */
  public static BenchSystems open(BenchDatabase db) throws SQLException {
    WriteTable.create(db);
    final Connection unsharded = db.unsharded().connect();
    final List<Connection> shards = new ArrayList<>();
    for (JdbcEndpoint shard : db.shards()) {
      shards.add(shard.connect());
    }
    final List<String> writeTables = List.of(WriteTable.NAME);
    final Connection shardSet = db.connectShardSet(writeTables);
    final ShardSchema schema = shardSet.unwrap(CalciteConnection.class).getRootSchema()
        .subSchemas().get(Models.SCHEMA).unwrap(ShardSchema.class);
    final ShardingSphereSystem shardingSphere = db.openShardingSphere(writeTables);
    return new BenchSystems(unsharded, shards, router(schema, "ORDERS"),
        router(schema, WriteTable.NAME), db.connectUnionAll(), shardSet, shardingSphere,
        shardingSphere.connect());
  }

  private static ShardRouter router(ShardSchema schema, String table) {
    return Objects.requireNonNull(schema.table(table).router(), () -> "router of " + table);
  }

  /** L: plain JDBC to the one database holding every row. */
  public Connection unsharded() {
    return unsharded;
  }

  /** D: plain JDBC to shard {@code i}. */
  public Connection shard(int i) {
    return shards.get(i);
  }

  public int shardCount() {
    return shards.size();
  }

  /** The shard of an ORDERS key, as ShardSet routes it. */
  public int shardOfCustomer(long customerId) {
    return ordersRouter.shardOf(List.of(customerId)).orElseThrow(
        () -> new IllegalStateException("no shard accepts CUSTOMER_ID " + customerId));
  }

  /** The shard of a {@link WriteTable} key, as ShardSet routes it: where D writes the row. */
  public int shardOfWrite(long customerId) {
    return writeRouter.shardOf(List.of(customerId)).orElseThrow(() -> new IllegalStateException(
        "no shard accepts " + WriteTable.NAME + ".CUSTOMER_ID " + customerId));
  }

  /** D: plain JDBC to every shard, s0 first. */
  public List<Connection> shards() {
    return shards;
  }

  /** N: Calcite's JDBC adapter, one JdbcSchema per shard and UNION ALL views. */
  public Connection unionAll() {
    return unionAll;
  }

  /** X: ShardSet. */
  public Connection shardSet() {
    return shardSet;
  }

  /** S: ShardingSphere-JDBC over the same shards, placing rows by the same routing. */
  public Connection shardingSphere() {
    return shardingSphereConnection;
  }

  /** S as a data source, for workloads that need a connection of their own. */
  public ShardingSphereSystem shardingSphereSystem() {
    return shardingSphere;
  }

  @Override public void close() throws Exception {
    final List<Connection> all = new ArrayList<>(shards);
    all.add(unsharded);
    all.add(unionAll);
    all.add(shardSet);
    all.add(shardingSphereConnection);
    try {
      Connections.closeAll(all);
    } finally {
      shardingSphere.close();
    }
  }
}
