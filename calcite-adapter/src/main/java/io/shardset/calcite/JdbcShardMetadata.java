package io.shardset.calcite;

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
import io.shardset.topology.TableLayoutReader;

import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a schema reads from its shards when a connection opens (each table's columns on each
 * shard, each shard's SQL dialect), backed by a process-wide registry of the last values read;
 * endpoints are the pools of the model's {@link ModelResources}.
 *
 * <p>The registry lets connections open while a shard is down: Calcite builds the schema anew
 * for every connection, and without it one unreachable shard would make every table of the
 * model unusable, also for queries that never reach that shard. A successful read always
 * replaces the registry's value, so a shard whose tables change is seen as it is now whenever
 * it can be reached. Entries are keyed by what identifies a shard's database (name, URL, user,
 * catalog, schema) and the physical table name, and live as long as the process (the
 * runtime keeps a place for them as an instance: {@link ShardSetRuntime}).
 */
final class JdbcShardMetadata implements ShardMetadata {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcShardMetadata.class);
  /** Connections to one lookup table's directory database. */
  private static final int DIRECTORY_POOL_SIZE = 4;

  /** Identifies one shard's database, as far as its metadata goes. */
  private record ShardKey(String shard, String jdbcUrl, @Nullable String user,
      @Nullable String catalog, @Nullable String schema) {
    static ShardKey of(ShardSpec shard) {
      return new ShardKey(shard.name(), shard.jdbcUrl(), shard.jdbcUser(), shard.jdbcCatalog(),
          shard.jdbcSchema());
    }
  }

  /** Identifies one table on one shard. */
  private record TableKey(ShardKey shard, String physicalName) {
  }

  private static final Map<TableKey, ShardColumns> COLUMNS = new ConcurrentHashMap<>();
  private static final Map<ShardKey, SqlDialect> DIALECTS = new ConcurrentHashMap<>();
  private static final Map<TableKey, List<ShardColumns>> SUBPARTITIONS =
      new ConcurrentHashMap<>();

  private final ShardSetModel model;
  private final ModelResources resources;
  private final Map<String, ShardEndpoint> endpoints;
  private final ShardConnections connections;

  /**
   * Reads the metadata of the model's shards, connecting to each on first use.
   *
   * @param resources the model's pools and directories
   * @param dialects the runtime's dialect cache
   */
  JdbcShardMetadata(ShardSetModel model, ModelResources resources, Dialects dialects) {
    this.model = Objects.requireNonNull(model, "model");
    this.resources = Objects.requireNonNull(resources, "resources");
    final Map<String, ShardEndpoint> pools = new LinkedHashMap<>();
    for (ShardSpec shard : model.shards()) {
      pools.put(shard.name(),
          resources.endpoint(new ShardConnectionSettings(shard.name(), shard.jdbcUrl(),
              shard.jdbcUser(), shard.jdbcPassword(), shard.jdbcDriver(), shard.poolSize(),
              shard.connectTimeoutMillis(), shard.statementTimeoutMillis(),
              shard.socketTimeoutMillis(), shard.tcpKeepAlive(), shard.acquireTimeoutMillis())));
    }
    this.endpoints = Map.copyOf(pools);
    this.connections = new ShardConnections(endpoints, dialects);
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
    final TableKey key = new TableKey(ShardKey.of(shard), table.physicalName());
    try {
      final ShardColumns read = TableLayoutReader.readShard(model, table, shard,
          connections.get(shard.name()));
      COLUMNS.put(key, read);
      return read;
    } catch (ShardException | SQLException e) {
      final ShardColumns known = COLUMNS.get(key);
      if (known == null) {
        throw unknown(shard, "the columns of table '" + table.name() + "'", e);
      }
      LOG.warn("shard '{}' cannot be reached ({}); table '{}' uses the columns read from it"
          + " earlier", shard.name(), detail(e), table.name());
      return known;
    }
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
    final TableKey key = new TableKey(ShardKey.of(shard),
        table.subpartitions().physicalName());
    try {
      final List<ShardColumns> read = TableLayoutReader.readSubpartitions(model, table, shard,
          connections.get(shard.name()));
      SUBPARTITIONS.put(key, read);
      return read;
    } catch (ShardException | SQLException e) {
      final List<ShardColumns> known = SUBPARTITIONS.get(key);
      if (known == null) {
        throw unknown(shard, "the subpartition tables of table '" + table.name() + "'", e);
      }
      LOG.warn("shard '{}' cannot be reached ({}); table '{}' uses the subpartition tables"
          + " read from it earlier", shard.name(), detail(e), table.name());
      return known;
    }
  }

  /**
   * A shard's SQL dialect: from its metadata, or when it cannot be reached, the last one read
   * in this process.
   *
   * @throws ShardException if the shard cannot be reached and its dialect was never read
   */
  @Override public SqlDialect dialect(ShardSpec shard) {
    final ShardKey key = ShardKey.of(shard);
    try {
      final SqlDialect dialect = connections.dialect(shard.name());
      DIALECTS.put(key, dialect);
      return dialect;
    } catch (ShardException e) {
      final SqlDialect known = DIALECTS.get(key);
      if (known == null) {
        throw unknown(shard, "its SQL dialect", e);
      }
      return known;
    }
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

  private static ShardException unknown(ShardSpec shard, String what, Exception cause) {
    return new ShardException(shard.name(), "cannot read " + what + " (" + detail(cause)
        + "), and no earlier connection of this process has read them", cause);
  }

  /** The failure without the shard's name, which the caller's message already gives. */
  private static String detail(Exception e) {
    return e instanceof ShardException shardFailure ? shardFailure.detail()
        : String.valueOf(e.getMessage());
  }
}
