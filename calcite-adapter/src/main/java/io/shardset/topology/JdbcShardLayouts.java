package io.shardset.topology;

import io.shardset.execution.JdbcDirectory;
import io.shardset.execution.ModelResources;
import io.shardset.execution.ShardConnectionSettings;
import io.shardset.execution.ShardEndpoint;
import io.shardset.execution.ShardException;
import io.shardset.model.DirectorySpec;
import io.shardset.model.ModelException;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.Directory;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What resolving tables reads from the shards (each table's columns on each shard, how each
 * shard quotes names), falling back on what {@link KnownLayouts} remembers of earlier reads;
 * endpoints are the pools of the model's {@link ModelResources}.
 *
 * <p>The memory lets connections open while a shard is down: Calcite builds the schema anew
 * for every connection, and without it one unreachable shard would make every table of the
 * model unusable, also for queries that never reach that shard. A successful read always
 * replaces the remembered value, so a shard whose tables change is seen as it is now whenever
 * it can be reached.
 */
public final class JdbcShardLayouts implements ShardLayouts {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcShardLayouts.class);
  /** Connections to one lookup table's directory database. */
  private static final int DIRECTORY_POOL_SIZE = 4;

  private final ShardSetModel model;
  private final Map<String, ShardEndpoint> endpoints;
  private final ShardConnections connections;
  private final KnownLayouts known;
  private final ModelResources resources;

  /**
   * Reads the layouts of the model's shards, connecting to each on first use.
   *
   * @param resources the model's pools and directories
   * @param known what earlier reads found, used while a shard cannot be reached, and
   *     updated by every read
   */
  public JdbcShardLayouts(ShardSetModel model, ModelResources resources, KnownLayouts known) {
    this.model = Objects.requireNonNull(model, "model");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.known = Objects.requireNonNull(known, "known");
    final Map<String, ShardEndpoint> pools = new LinkedHashMap<>();
    for (ShardSpec shard : model.shards()) {
      pools.put(shard.name(),
          resources.endpoint(new ShardConnectionSettings(shard.name(), shard.jdbcUrl(),
              shard.jdbcUser(), shard.jdbcPassword(), shard.jdbcDriver(), shard.poolSize(),
              shard.connectTimeoutMillis(), shard.statementTimeoutMillis(),
              shard.socketTimeoutMillis(), shard.tcpKeepAlive(), shard.acquireTimeoutMillis(),
              shard.lockTimeoutMillis())));
    }
    this.endpoints = Map.copyOf(pools);
    this.connections = new ShardConnections(endpoints);
  }

  @Override public ShardEndpoint endpoint(ShardSpec shard) {
    return Objects.requireNonNull(endpoints.get(shard.name()), shard.name());
  }

  /**
   * A table's columns on one shard: read from the shard, or when it cannot be reached, the
   * last ones read in this process.
   *
   * @throws ShardException if the shard cannot be reached and its columns were never read
   * @throws io.shardset.model.ModelException if the shard lacks the table
   */
  @Override public ShardColumns columns(ShardSpec shard, TableSpec table) {
    return known.columns().readOrRecall(
        new KnownLayouts.TableKey(ShardKey.of(shard), table.physicalName()),
        () -> TableLayoutReader.readShard(model, table, shard, connections.get(shard.name())),
        e -> LOG.warn("shard '{}' cannot be reached ({}); table '{}' uses the columns read"
            + " from it earlier", shard.name(), detail(e), table.name()),
        e -> unknown(shard, "the columns of table '" + table.name() + "'", e));
  }

  /**
   * A subpartitioned table's subpartition tables and their columns on one shard, in model
   * order: read from the shard, or when it cannot be reached, the last ones read in this
   * process.
   *
   * @throws ShardException if the shard cannot be reached and they were never read
   * @throws io.shardset.model.ModelException if the shard lacks a subpartition table
   */
  @Override public List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table) {
    return known.subpartitions().readOrRecall(
        new KnownLayouts.TableKey(ShardKey.of(shard), table.subpartitions().physicalName()),
        () -> TableLayoutReader.readSubpartitions(model, table, shard,
            connections.get(shard.name())),
        e -> LOG.warn("shard '{}' cannot be reached ({}); table '{}' uses the subpartition"
            + " tables read from it earlier", shard.name(), detail(e), table.name()),
        e -> unknown(shard, "the subpartition tables of table '" + table.name() + "'", e));
  }

  /**
   * How a shard quotes identifiers: from its metadata, or when it cannot be reached, as read
   * last in this process.
   *
   * @throws ShardException if the shard cannot be reached and its quoting was never read
   */
  @Override public IdentifierQuoting quoting(ShardSpec shard) {
    return known.quoting().readOrRecall(ShardKey.of(shard),
        () -> new IdentifierQuoting(
            connection(shard).getMetaData().getIdentifierQuoteString()),
        e -> { },
        e -> unknown(shard, "how it quotes names", e));
  }

  /**
   * The open connection to a shard, for reading more of its metadata; closed with this.
   *
   * @throws ShardException if the shard cannot be reached
   */
  public Connection connection(ShardSpec shard) {
    return connections.get(shard.name());
  }

  /** A failure reading a shard's metadata, as the shard's failure with secrets removed. */
  public ShardException failure(ShardSpec shard, SQLException e) {
    return connections.failure(shard.name(), e);
  }

  /** A lookup table's directory, checked to exist; null for other tables. */
  @Override public @Nullable Directory directory(TableSpec spec) {
    final DirectorySpec d = spec.directory();
    if (d == null) {
      return null;
    }
    final JdbcDirectory directory = resources.directory(new JdbcDirectory.Settings(
        new ShardConnectionSettings("directory of " + model.schema() + "." + spec.name(),
            d.jdbcUrl(), d.jdbcUser(), d.jdbcPassword(), null, DIRECTORY_POOL_SIZE),
        d.table(), d.keyColumn(), d.shardColumn(), d.cacheSize(), d.cacheSeconds()));
    try {
      directory.verify();
    } catch (JdbcDirectory.MissingException e) {
      throw new ModelException(model.schema(), spec.name(), "directory." + e.setting(),
          e.getMessage());
    } catch (ShardException e) {
      throw new ModelException(model.schema(), spec.name(), "directory",
          "cannot read the directory database: " + e.detail(), e);
    }
    return directory;
  }

  @Override public void close() {
    connections.close();
  }

  /** The failure of a read that neither the shard nor memory can answer. */
  public static ShardException unknown(ShardSpec shard, String what, Exception cause) {
    return new ShardException(shard.name(), "cannot read " + what + " (" + detail(cause)
        + "), and no earlier connection of this process has read them", cause);
  }

  /** The failure without the shard's name, which the caller's message already gives. */
  private static String detail(Exception e) {
    return e instanceof ShardException shardFailure ? shardFailure.detail()
        : String.valueOf(e.getMessage());
  }
}
