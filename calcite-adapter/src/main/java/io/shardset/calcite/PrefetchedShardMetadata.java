package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The shards' metadata, read from every shard at once, several shards at a time, before a schema
 * is built from it: each shard's columns of each of its tables, its quoting and its SQL
 * dialect, each read once. The schema then asks in its own order, one table and shard after
 * the other, and gets what was read, or the failure reading it met; so a schema that cannot be
 * built fails with the error it would have met reading the shards one after the other.
 *
 * <p>Directories and endpoints are passed through to the reader, which also answers what was
 * not read up front.
 */
final class PrefetchedShardMetadata implements ShardMetadata {
  /** What one read gave: a value, or the failure to throw where the value is asked for. */
  private record Outcome<T>(@Nullable T value, @Nullable RuntimeException failure) {
    static <T> Outcome<T> of(Supplier<T> read) {
      try {
        return new Outcome<>(read.get(), null);
      } catch (RuntimeException e) {
        return new Outcome<>(null, e);
      }
    }

    T get() {
      if (failure != null) {
        throw failure;
      }
      return Objects.requireNonNull(value);
    }
  }

  /** Identifies a table on a shard. */
  private record Part(String shard, String table) {
  }

  private final ShardMetadata reader;
  private final Map<Part, Outcome<ShardColumns>> columns = new ConcurrentHashMap<>();
  private final Map<Part, Outcome<List<ShardColumns>>> subpartitions =
      new ConcurrentHashMap<>();
  private final Map<String, Outcome<IdentifierQuoting>> quoting = new ConcurrentHashMap<>();
  private final Map<String, Outcome<SqlDialect>> dialects = new ConcurrentHashMap<>();

  private PrefetchedShardMetadata(ShardMetadata reader) {
    this.reader = reader;
  }

  /**
   * Reads the model's shards through {@code reader}, at most {@code limit} shards at a time
   * (the calling thread among them, the others from {@code threads}); closing the result
   * closes {@code reader}.
   *
   * @param reader answers for one shard at a time; shards are read on several threads, each
   *     shard on one
   */
  static PrefetchedShardMetadata read(ShardSetModel model, ShardMetadata reader,
      Executor threads, int limit) {
    final PrefetchedShardMetadata metadata = new PrefetchedShardMetadata(reader);
    final Map<String, List<TableSpec>> tablesOf = new HashMap<>();
    for (TableSpec table : model.tables()) {
      for (String shard : table.shards()) {
        tablesOf.computeIfAbsent(shard, s -> new ArrayList<>()).add(table);
      }
    }
    final List<Runnable> tasks = new ArrayList<>();
    for (ShardSpec shard : model.shards()) {
      final List<TableSpec> tables = tablesOf.getOrDefault(shard.name(), List.of());
      tasks.add(() -> metadata.readShard(shard, tables));
    }
    BoundedTasks.run(tasks, threads, limit);
    return metadata;
  }

  /** Reads one shard's part of its tables, in model order, then its quoting and dialect: the
   * order a schema asks in. */
  private void readShard(ShardSpec shard, List<TableSpec> tables) {
    for (TableSpec table : tables) {
      final Part part = new Part(shard.name(), table.name());
      if (table.isSubpartitioned()) {
        subpartitions.put(part, Outcome.of(() -> reader.subpartitionColumns(shard, table)));
      } else {
        columns.put(part, Outcome.of(() -> reader.columns(shard, table)));
      }
    }
    quoting.put(shard.name(), Outcome.of(() -> reader.quoting(shard)));
    dialects.put(shard.name(), Outcome.of(() -> reader.dialect(shard)));
  }

  @Override public ShardEndpoint endpoint(ShardSpec shard) {
    return reader.endpoint(shard);
  }

  @Override public ShardColumns columns(ShardSpec shard, TableSpec table) {
    final Outcome<ShardColumns> read = columns.get(new Part(shard.name(), table.name()));
    return read == null ? reader.columns(shard, table) : read.get();
  }

  @Override public List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table) {
    final Outcome<List<ShardColumns>> read =
        subpartitions.get(new Part(shard.name(), table.name()));
    return read == null ? reader.subpartitionColumns(shard, table) : read.get();
  }

  @Override public IdentifierQuoting quoting(ShardSpec shard) {
    final Outcome<IdentifierQuoting> read = quoting.get(shard.name());
    return read == null ? reader.quoting(shard) : read.get();
  }

  @Override public SqlDialect dialect(ShardSpec shard) {
    final Outcome<SqlDialect> read = dialects.get(shard.name());
    return read == null ? reader.dialect(shard) : read.get();
  }

  @Override public @Nullable Directory directory(TableSpec table) {
    return reader.directory(table);
  }

  @Override public void close() {
    reader.close();
  }
}
