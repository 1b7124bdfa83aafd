package io.shardset.calcite;

import io.shardset.model.ColumnInfo;
import io.shardset.model.ModelException;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.TableSpec;
import io.shardset.topology.IdentifierQuoting;
import io.shardset.topology.TableLayoutReader;

import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a schema took one shard to be without reading it (see {@link SampledShardMetadata}):
 * for some of its tables, the physical tables and columns another shard of its kind has, and
 * perhaps that shard's quoting and dialect. {@link #check} compares them with the shard.
 *
 * <p>Filled while the schema is built, on one thread; checked afterwards, on any.
 */
final class ShardAssumptions {
  /** A table taken to be on this shard as it is on {@code from}. */
  private record TableTaken(TableSpec table, ShardSpec from, List<ShardColumns> fromParts,
      List<ShardColumns> taken) {
  }

  /** A value taken from {@code from}. */
  private record Taken<T>(T value, ShardSpec from) {
  }

  private final ShardSetModel model;
  private final ShardSpec shard;
  private final Dialects dialects;
  private final List<TableTaken> tables = new ArrayList<>();
  private @Nullable Taken<IdentifierQuoting> quoting;
  private @Nullable Taken<SqlDialect> dialect;

  ShardAssumptions(ShardSetModel model, ShardSpec shard, Dialects dialects) {
    this.model = Objects.requireNonNull(model, "model");
    this.shard = Objects.requireNonNull(shard, "shard");
    this.dialects = Objects.requireNonNull(dialects, "dialects");
  }

  /**
   * Records that the shard was taken to hold {@code table} as {@code taken}, its physical
   * tables (one, or each subpartition's), derived from {@code fromParts} of shard
   * {@code from}.
   */
  synchronized void table(TableSpec table, ShardSpec from, List<ShardColumns> fromParts,
      List<ShardColumns> taken) {
    tables.add(new TableTaken(table, from, List.copyOf(fromParts), List.copyOf(taken)));
  }

  /** Records that the shard was taken to quote names as {@code from} does. */
  synchronized void quoting(IdentifierQuoting value, ShardSpec from) {
    quoting = new Taken<>(value, from);
  }

  /** Records that the shard was taken to speak {@code value}, as {@code from} does. */
  synchronized void dialect(SqlDialect value, ShardSpec from) {
    dialect = new Taken<>(value, from);
  }

  /** Whether anything was taken without reading the shard. */
  synchronized boolean isEmpty() {
    return tables.isEmpty() && quoting == null && dialect == null;
  }

  /**
   * Reads the shard's metadata over {@code connection} and compares it with what was taken.
   *
   * @throws SQLException whose message is the model error a schema built from every shard
   *     would have met (or the difference that would have changed the plans), if the shard is
   *     not what was taken, or the failure to read the metadata
   */
  void check(Connection connection) throws SQLException {
    final List<TableTaken> tables;
    final Taken<IdentifierQuoting> quoting;
    final Taken<SqlDialect> dialect;
    synchronized (this) {
      tables = List.copyOf(this.tables);
      quoting = this.quoting;
      dialect = this.dialect;
    }
    try {
      final DatabaseMetaData metaData = connection.getMetaData();
      if (dialect != null) {
        checkDialect(metaData, dialect);
      }
      if (quoting != null) {
        final IdentifierQuoting actual =
            new IdentifierQuoting(metaData.getIdentifierQuoteString());
        if (!quoting.value().equals(actual)) {
          throw differs(null, "identifier quote '" + actual.quote() + "'", quoting.from(),
              "'" + quoting.value().quote() + "'");
        }
      }
      for (TableTaken table : tables) {
        checkTable(connection, table);
      }
    } catch (ModelException e) {
      // An SQLException, as any failure of a shard's connect: the statement's layer names the
      // shard ("shard 's3' failed: ...").
      throw new SQLException(e.getMessage(), e);
    }
  }

  private void checkDialect(DatabaseMetaData metaData, Taken<SqlDialect> taken)
      throws SQLException {
    final List<Object> expected = dialects.kindOf(taken.value());
    final List<Object> actual = dialects.kind(metaData);
    if (expected == null ? !dialects.of(metaData).getClass().equals(taken.value().getClass())
        : !expected.equals(actual)) {
      final String has = product(actual);
      final String fromHas = expected == null ? taken.value().getClass().getSimpleName()
          : product(expected);
      throw differs(null, "database " + has + (has.equals(fromHas) ? " with other SQL"
          + " settings (NULL ordering, identifier case, quoting or escapes)" : ""),
          taken.from(), fromHas);
    }
  }

  /** A database kind's product and major version, such as "PostgreSQL 16". */
  private static String product(List<Object> kind) {
    return kind.get(0) + " " + kind.get(1);
  }

  private void checkTable(Connection connection, TableTaken taken) throws SQLException {
    final TableSpec table = taken.table();
    final List<ShardColumns> actual = table.isSubpartitioned()
        ? TableLayoutReader.readSubpartitions(model, table, shard, connection)
        : List.of(TableLayoutReader.readShard(model, table, shard, connection));
    for (int i = 0; i < actual.size(); i++) {
      final ShardColumns from = taken.fromParts().get(i);
      final ShardColumns part = actual.get(i);
      // Disagreements a schema built from every shard reports, in its words.
      TableLayoutReader.combine(model, table, List.of(from, part));
      final ShardColumns expected = taken.taken().get(i);
      if (!part.table().table().equals(expected.table().table())
          || !Objects.equals(qualifier(part), qualifier(expected))) {
        throw differs(table, "the table as '" + qualified(part) + "'", taken.from(),
            "'" + qualified(from) + "'");
      }
      for (int c = 0; c < part.columns().size(); c++) {
        final String physical = part.table().columns().get(c);
        final String expectedPhysical = expected.table().columns().get(c);
        if (!physical.equals(expectedPhysical)) {
          throw differs(table, "column '" + part.columns().get(c).name() + "' as '"
              + physical + "'", taken.from(), "'" + expectedPhysical + "'");
        }
        final ColumnInfo column = part.columns().get(c);
        final ColumnInfo expectedColumn = expected.columns().get(c);
        if (!column.equals(expectedColumn)) {
          throw differs(table, "column '" + column.name() + "' as " + describe(column),
              taken.from(), describe(expectedColumn));
        }
      }
      if (!part.primaryKey().equals(expected.primaryKey())) {
        throw differs(table, "primary key " + part.primaryKey(), taken.from(),
            expected.primaryKey().toString());
      }
    }
  }

  /** The catalog and schema the shard's SQL names the table with (see
   * {@code ShardedTableResolver}); the rest of a table's place does not reach its SQL. */
  private List<@Nullable String> qualifier(ShardColumns part) {
    final List<@Nullable String> names = new ArrayList<>();
    names.add(shard.jdbcCatalog() == null ? null : part.table().catalog());
    names.add(shard.jdbcSchema() == null ? null : part.table().schema());
    return names;
  }

  private static String qualified(ShardColumns part) {
    final List<String> names = new ArrayList<>();
    if (part.table().schema() != null) {
      names.add(part.table().schema());
    }
    names.add(part.table().table());
    return String.join(".", names);
  }

  private static String describe(ColumnInfo column) {
    return column.typeName() + "(" + column.precision() + ", " + column.scale() + ")"
        + (column.nullable() ? " NULL" : " NOT NULL") + (column.defaulted() ? " with a default"
            : "");
  }

  /**
   * A shard that is not as the shard read for it: "shard 's7' has ... where shard 's0', read
   * for it when the connection opened, has ...".
   */
  private ModelException differs(@Nullable TableSpec table, String has, ShardSpec from,
      String fromHas) {
    return new ModelException(model.schema(), table == null ? null : table.name(),
        table == null ? "checkShards" : "columns", "shard '" + shard.name() + "' has " + has
        + " where shard '" + from.name() + "', read for it when the connection opened, has "
        + fromHas);
  }
}
