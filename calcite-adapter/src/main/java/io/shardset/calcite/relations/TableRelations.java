package io.shardset.calcite.relations;

import io.shardset.calcite.ForeignKeyDef;
import io.shardset.calcite.ModelReferences;
import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardTable;
import io.shardset.calcite.relations.ShardRelationsReader.PhysicalName;
import io.shardset.calcite.relations.ShardRelationsReader.Referenced;
import io.shardset.model.PhysicalTable;
import io.shardset.topology.ShardSite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The indexes and foreign keys of a logical table: those that every shard of the table
 * declares alike, read from the shards when asked (a BI tool asks rarely; a connection should
 * not pay for it when it opens). A shard that declares another, or none, hides it: what one
 * shard lacks is not true of the table. Alike means with the same definition, whatever the
 * name: a database names an unnamed index or constraint itself (H2's {@code PRIMARY_KEY_5}),
 * and a shard created later, by resharding, gets other such names. The first shard's name is
 * listed.
 *
 * <p>An index unique on each shard is unique in the table only when equal values go to one
 * shard: when the table is duplicated, or the index holds every column the table is routed
 * by. Other indexes are listed as not unique.
 */
final class TableRelations {
  private TableRelations() {
  }

  /** One shard's part of what is read. */
  @FunctionalInterface
  private interface ShardRead<T> {
    List<T> read(ShardRelationsReader reader, String shard) throws SQLException;
  }

  /** The indexes every shard of the table declares alike. */
  static List<IndexDef> indexes(ShardTable table) throws SQLException {
    final List<String> routing = table.keyColumns().stream()
        .map(i -> table.layout().columnNames().get(i)).toList();
    final List<IndexDef> indexes = new ArrayList<>();
    for (IndexDef index : common(table, "indexes", (reader, shard) -> reader.indexes(),
        index -> index.withName(""))) {
      indexes.add(index.withUnique(index.unique()
          && (table.isDuplicated() || index.columns().containsAll(routing))));
    }
    return indexes;
  }

  /**
   * The foreign keys every shard of the table declares alike, to tables of {@code schema},
   * and after them those the model declares ({@link ModelReferences}) that the shards do not.
   */
  static List<ForeignKeyDef> foreignKeys(ShardSchema schema, ShardTable table)
      throws SQLException {
    final List<ForeignKeyDef> keys = new ArrayList<>(common(table, "foreign keys",
        (reader, shard) -> reader.foreignKeys(name -> referenced(schema, shard, name)),
        key -> key.withName(null)));
    final Map<String, ShardTable> tables = new LinkedHashMap<>();
    schema.tableNames().forEach(name -> tables.put(name, schema.table(name)));
    for (ForeignKeyDef declared
        : ModelReferences.foreignKeys(table.schemaName(), table, tables)) {
      if (keys.stream().noneMatch(key -> key.relates(declared))) {
        keys.add(declared);
      }
    }
    return keys;
  }

  /** The logical table of {@code schema} whose physical table on {@code shard} that is. */
  private static @Nullable Referenced referenced(ShardSchema schema, String shard,
      PhysicalName name) {
    for (String tableName : schema.tableNames()) {
      final ShardTable table = schema.table(tableName);
      for (PhysicalTable physical : table.layout().shards()) {
        if (physical.shard().equals(shard) && name.names(physical)) {
          return new Referenced(tableName, table.layout(), physical);
        }
      }
    }
    return null;
  }

  /** What every shard's read returns with the same definition, as the first shard returns
   * it, in its order. */
  private static <T> List<T> common(ShardTable table, String what, ShardRead<T> read,
      Function<T, T> definition) throws SQLException {
    List<T> common = null;
    for (int i = 0; i < table.shardCount(); i++) {
      final ShardSite site = table.site(i);
      final List<T> found;
      try (Connection connection = site.endpoint().connect()) {
        found = read.read(new ShardRelationsReader(connection.getMetaData(),
            table.layout().shards().get(i), table.layout()), site.name());
      } catch (SQLException e) {
        throw new SQLException("cannot read the " + what + " of " + table.qualifiedName()
            + " on shard '" + site.name() + "': "
            + site.endpoint().redact(String.valueOf(e.getMessage())), e.getSQLState(), e);
      }
      if (common == null) {
        common = new ArrayList<>(found);
      } else {
        final Set<T> definitions = found.stream().map(definition).collect(Collectors.toSet());
        common.removeIf(item -> !definitions.contains(definition.apply(item)));
      }
    }
    return common == null ? List.of() : List.copyOf(common);
  }
}
