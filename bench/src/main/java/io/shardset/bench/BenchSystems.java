package io.shardset.bench;

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
 * JDBC adapter) and X (ShardSet).
 */
public final class BenchSystems implements AutoCloseable {
  private final Connection unsharded;
  private final List<Connection> shards;
  private final ShardRouter ordersRouter;
  private final Connection unionAll;
  private final Connection shardSet;

  private BenchSystems(Connection unsharded, List<Connection> shards, ShardRouter ordersRouter,
      Connection unionAll, Connection shardSet) {
    this.unsharded = Objects.requireNonNull(unsharded, "unsharded");
    this.shards = List.copyOf(shards);
    this.ordersRouter = Objects.requireNonNull(ordersRouter, "ordersRouter");
    this.unionAll = Objects.requireNonNull(unionAll, "unionAll");
    this.shardSet = Objects.requireNonNull(shardSet, "shardSet");
  }

  /** Opens every system's connection. */
  public static BenchSystems open(BenchDatabase db) throws SQLException {
    final Connection unsharded = db.unsharded().connect();
    final List<Connection> shards = new ArrayList<>();
    for (JdbcEndpoint shard : db.shards()) {
      shards.add(shard.connect());
    }
    final Connection shardSet = db.connectShardSet();
    final ShardRouter router = shardSet.unwrap(CalciteConnection.class).getRootSchema()
        .subSchemas().get(Models.SCHEMA).unwrap(ShardSchema.class).table("ORDERS").router();
    return new BenchSystems(unsharded, shards, Objects.requireNonNull(router, "router"),
        db.connectUnionAll(), shardSet);
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

  /** N: Calcite's JDBC adapter, one JdbcSchema per shard and UNION ALL views. */
  public Connection unionAll() {
    return unionAll;
  }

  /** X: ShardSet. */
  public Connection shardSet() {
    return shardSet;
  }

  @Override public void close() throws SQLException {
    final List<Connection> all = new ArrayList<>(shards);
    all.add(unsharded);
    all.add(unionAll);
    all.add(shardSet);
    Connections.closeAll(all);
  }
}
