package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.model.PhysicalTable;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.Directory;
import io.shardset.topology.IdentifierQuoting;

import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The shards' metadata under {@code "checkShards": "onFirstUse"}: read from one shard of each
 * kind per table, and taken to be the same on the table's other shards of that kind, each of
 * which is then checked the first time a statement connects to it ({@link ShardAssumptions},
 * {@link CheckedShardEndpoint}). Opening a connection to a model of a thousand shards then
 * reads a handful of them.
 *
 * <p>Shards are of one kind when their JDBC URLs name the same driver scheme
 * ({@code jdbc:postgresql:}), they name the same driver class, and they set the same of
 * {@code jdbcCatalog} and {@code jdbcSchema}. A shard's table is taken from the table's first
 * shard of its kind, with the shard's own catalog and schema; where that cannot be done
 * exactly (the first shard reports its table in a catalog or schema other than the one its
 * model entry names) the shard is read at once, as with {@code atOpen}. Quoting and dialect
 * are taken from the first shard of the kind in model order.
 */
final class SampledShardMetadata implements ShardMetadata {
  /** Identifies a table on a shard. */
  private record Part(String shard, String table) {
  }

  /** What makes shards alike enough to take one for the others. */
  private record Kind(String scheme, @Nullable String driver, boolean catalog,
      boolean schema) {
    static Kind of(ShardSpec shard) {
      final String url = shard.jdbcUrl();
      final int first = url.indexOf(':');
      final int second = first < 0 ? -1 : url.indexOf(':', first + 1);
      return new Kind(second < 0 ? url : url.substring(0, second), shard.jdbcDriver(),
          shard.jdbcCatalog() != null, shard.jdbcSchema() != null);
    }
  }

  private final ShardSetModel model;
  private final ShardMetadata reader;
  private final Map<String, ShardSpec> shards;
  private final Map<String, Kind> kinds = new HashMap<>();
  /** The first shard of each kind, in model order. */
  private final Map<Kind, ShardSpec> leads = new HashMap<>();
  private final Map<String, ShardAssumptions> assumptions = new HashMap<>();
  private final Map<String, ShardEndpoint> endpoints = new HashMap<>();
  private final Map<Part, List<ShardColumns>> read = new HashMap<>();
  private final Map<String, IdentifierQuoting> quotings = new HashMap<>();
  private final Map<String, SqlDialect> leadDialects = new HashMap<>();

  /**
   * Reads through {@code reader}, which this closes.
   *
   * @param dialects the runtime's dialects, which checks compare shards' kinds with
   */
  SampledShardMetadata(ShardSetModel model, ShardMetadata reader, Dialects dialects) {
    this.model = Objects.requireNonNull(model, "model");
    this.reader = Objects.requireNonNull(reader, "reader");
    Objects.requireNonNull(dialects, "dialects");
    this.shards = model.shardsByName();
    for (ShardSpec shard : model.shards()) {
      final Kind kind = Kind.of(shard);
      kinds.put(shard.name(), kind);
      leads.putIfAbsent(kind, shard);
      assumptions.put(shard.name(), new ShardAssumptions(model, shard, dialects));
    }
  }

  @Override public synchronized ShardEndpoint endpoint(ShardSpec shard) {
    return endpoints.computeIfAbsent(shard.name(), name -> new CheckedShardEndpoint(
        reader.endpoint(shard), assumptions.get(name)));
  }

  @Override public ShardColumns columns(ShardSpec shard, TableSpec table) {
    return parts(shard, table).get(0);
  }

  @Override public List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table) {
    return parts(shard, table);
  }

  /** A table's physical tables on a shard: read, or taken from its first shard of the kind. */
  private synchronized List<ShardColumns> parts(ShardSpec shard, TableSpec table) {
    final ShardSpec from = firstOfKind(table, shard);
    final List<ShardColumns> fromParts = read(from, table);
    if (from.name().equals(shard.name())) {
      return fromParts;
    }
    final List<ShardColumns> taken = new ArrayList<>();
    for (ShardColumns part : fromParts) {
      final PhysicalTable physical = taken(shard, from, part.table());
      if (physical == null) {
        return read(shard, table);
      }
      taken.add(new ShardColumns(physical, part.columns(), part.primaryKey()));
    }
    assumptions.get(shard.name()).table(table, from, fromParts, taken);
    return taken;
  }

  private List<ShardColumns> read(ShardSpec shard, TableSpec table) {
    final Part part = new Part(shard.name(), table.name());
    final List<ShardColumns> parts = read.get(part);
    if (parts != null) {
      return parts;
    }
    final List<ShardColumns> fresh = table.isSubpartitioned()
        ? reader.subpartitionColumns(shard, table) : List.of(reader.columns(shard, table));
    read.put(part, fresh);
    return fresh;
  }

  /** The table's first shard of {@code shard}'s kind. */
  private ShardSpec firstOfKind(TableSpec table, ShardSpec shard) {
    final Kind kind = kinds.get(shard.name());
    for (String name : table.shards()) {
      if (kinds.get(name).equals(kind)) {
        return ShardSetModel.shard(shards, name);
      }
    }
    return shard;
  }

  /**
   * {@code from}'s physical table as {@code shard} would have it, in {@code shard}'s own
   * catalog and schema; null when {@code from}'s are not exactly those its model entry names.
   */
  private static @Nullable PhysicalTable taken(ShardSpec shard, ShardSpec from,
      PhysicalTable table) {
    if (from.jdbcCatalog() != null && !from.jdbcCatalog().equals(table.catalog())
        || from.jdbcSchema() != null && !from.jdbcSchema().equals(table.schema())) {
      return null;
    }
    return new PhysicalTable(shard.name(),
        from.jdbcCatalog() != null ? shard.jdbcCatalog() : null,
        from.jdbcSchema() != null ? shard.jdbcSchema() : table.schema(), table.table(),
        table.columns());
  }

  @Override public synchronized IdentifierQuoting quoting(ShardSpec shard) {
    final ShardSpec lead = leads.get(kinds.get(shard.name()));
    final IdentifierQuoting quoting =
        quotings.computeIfAbsent(lead.name(), name -> reader.quoting(lead));
    if (!lead.name().equals(shard.name())) {
      assumptions.get(shard.name()).quoting(quoting, lead);
    }
    return quoting;
  }

  @Override public synchronized SqlDialect dialect(ShardSpec shard) {
    final ShardSpec lead = leads.get(kinds.get(shard.name()));
    final SqlDialect dialect =
        leadDialects.computeIfAbsent(lead.name(), name -> reader.dialect(lead));
    if (!lead.name().equals(shard.name())) {
      assumptions.get(shard.name()).dialect(dialect, lead);
    }
    return dialect;
  }

  @Override public @Nullable Directory directory(TableSpec table) {
    return reader.directory(table);
  }

  @Override public void close() {
    reader.close();
  }
}
