package io.shardset.topology;

import io.shardset.model.ColumnInfo;
import io.shardset.model.ModelException;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.SubpartitionSpec;
import io.shardset.model.TableLayout;
import io.shardset.model.TableSpec;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads a logical table's columns from its shards' JDBC metadata and checks that the shards
 * agree on them.
 *
 * <p>On each shard the physical table is the table (of type {@code TABLE} or {@code BASE TABLE})
 * in the shard's {@code jdbcCatalog} and {@code jdbcSchema} named exactly {@code physicalName},
 * else the only one whose name matches ignoring case.
 *
 * <p>A column's logical name is its physical name, upper-cased when the name is all lower case
 * on a shard that stores unquoted identifiers in lower case: PostgreSQL's {@code cust_id} and
 * H2's {@code CUST_ID} are both the logical column {@code CUST_ID}.
 *
 * <p>Shards agree when they have the same logical columns in the same order with compatible
 * types: equal {@link Types} codes, where the character types (CHAR, VARCHAR, LONGVARCHAR,
 * NCHAR, NVARCHAR, LONGNVARCHAR) count as one. The logical column takes the first shard's type,
 * the widest precision and scale, and is nullable if any shard allows NULL.
 */
public final class TableLayoutReader {
  private static final Set<Integer> CHARACTER_TYPES = Set.of(Types.CHAR, Types.VARCHAR,
      Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR);

  private TableLayoutReader() {
  }

  /**
   * Reads a table's layout.
   *
   * @param model the model holding the table, for its shards' catalogs and schemas
   * @param table the table
   * @param connections an open connection to each of the table's shards, by shard name; the
   *     caller closes them
   * @throws ModelException if a shard lacks the table, the shards disagree on its columns, a
   *     shard key column does not exist, or a shard's metadata cannot be read
   */
  public static TableLayout read(ShardSetModel model, TableSpec table,
      Function<String, Connection> connections) {
    Objects.requireNonNull(connections, "connections");
    List<ShardColumns> shards = new ArrayList<>();
    for (String shard : table.shards()) {
      Connection connection =
          Objects.requireNonNull(connections.apply(shard), () -> "connection to " + shard);
      try {
        shards.add(table.isSubpartitioned()
            ? readSubpartitions(model, table, model.shard(shard), connection).get(0)
            : readShard(model, table, model.shard(shard), connection));
      } catch (SQLException e) {
        throw new ModelException(model.schema(), table.name(), null, "cannot read the metadata"
            + " of shard '" + shard + "': " + e.getMessage(), e);
      }
    }
    return combine(model, table, shards);
  }

  /**
   * Reads a table's physical table and columns on one shard.
   *
   * @throws ModelException if the shard lacks the table or its columns clash
   * @throws SQLException if the shard's metadata cannot be read
   */
  public static ShardColumns readShard(ShardSetModel model, TableSpec table, ShardSpec shard,
      Connection connection) throws SQLException {
    return new ShardTableReader(model.schema(), table, shard).read(connection);
  }

  /**
   * Reads the physical table of each subpartition of a table on one shard, and checks that
   * they all have the first one's columns; the first one's part then stands for the shard in
   * {@link #combine}.
   *
   * @return each subpartition's physical table and columns, in model order
   * @throws ModelException if the shard lacks a subpartition table or they disagree
   * @throws SQLException if the shard's metadata cannot be read
   */
  public static List<ShardColumns> readSubpartitions(ShardSetModel model, TableSpec table,
      ShardSpec shard, Connection connection) throws SQLException {
    SubpartitionSpec spec = Objects.requireNonNull(table.subpartitions(), "subpartitions");
    List<ShardColumns> parts = new ArrayList<>();
    for (int i = 0; i < spec.ranges().size(); i++) {
      ShardColumns part = new ShardTableReader(model.schema(), table, shard,
          spec.physicalName(i), SubpartitionSpec.FIELD).read(connection);
      if (!parts.isEmpty()) {
        checkSameColumns(model.schema(), table, parts.get(0), part);
      }
      parts.add(part);
    }
    return parts;
  }

  /** Fails unless a shard's subpartition table has the columns of its first one. */
  private static void checkSameColumns(String schema, TableSpec table, ShardColumns first,
      ShardColumns other) {
    String where = "on shard '" + other.table().shard() + "', subpartition table '"
        + other.table().table() + "' has ";
    String than = " where '" + first.table().table() + "' has ";
    if (other.columns().size() != first.columns().size()) {
      throw new ModelException(schema, table.name(), SubpartitionSpec.FIELD, where
          + other.columns().size() + " columns (" + names(other.columns()) + ")" + than
          + first.columns().size() + " (" + names(first.columns()) + ")");
    }
    for (int i = 0; i < first.columns().size(); i++) {
      ColumnInfo column = first.columns().get(i);
      ColumnInfo otherColumn = other.columns().get(i);
      if (!otherColumn.name().equals(column.name())) {
        throw new ModelException(schema, table.name(), SubpartitionSpec.FIELD, where
            + "column '" + otherColumn.name() + "' at position " + (i + 1) + than + "'"
            + column.name() + "'");
      }
      if (!compatible(column.jdbcType(), otherColumn.jdbcType())) {
        throw new ModelException(schema, table.name(), SubpartitionSpec.FIELD, where
            + "column '" + otherColumn.name() + "' of type " + type(otherColumn) + than
            + type(column));
      }
    }
  }

  /**
   * Checks that the shards agree on a table's columns and that its shard key exists, and
   * returns its layout.
   *
   * @param shards each of the table's shards' part, in the table's shard order
   * @throws ModelException if the shards disagree or a shard key column does not exist
   */
  public static TableLayout combine(ShardSetModel model, TableSpec table,
      List<ShardColumns> shards) {
    String schema = model.schema();
    TableLayout layout = new TableLayout(merge(schema, table, shards),
        shards.stream().map(ShardColumns::table).toList(), primaryKey(shards));
    checkShardKey(schema, table, layout);
    return layout;
  }

  /** The primary key every shard declares; none when a shard declares another (or none). */
  private static List<String> primaryKey(List<ShardColumns> shards) {
    List<String> first = shards.get(0).primaryKey();
    return shards.stream().allMatch(s -> s.primaryKey().equals(first)) ? first : List.of();
  }

  private static List<ColumnInfo> merge(String schema, TableSpec table,
      List<ShardColumns> shards) {
    ShardColumns first = shards.get(0);
    List<ColumnInfo> merged = new ArrayList<>(first.columns());
    for (ShardColumns other : shards.subList(1, shards.size())) {
      if (other.columns().size() != merged.size()) {
        throw disagreement(schema, table, other, first, other.columns().size() + " columns ("
            + names(other.columns()) + ")", merged.size() + " (" + names(merged) + ")");
      }
      for (int i = 0; i < merged.size(); i++) {
        ColumnInfo column = merged.get(i);
        ColumnInfo otherColumn = other.columns().get(i);
        if (!otherColumn.name().equals(column.name())) {
          throw disagreement(schema, table, other, first, "column '" + otherColumn.name()
              + "' at position " + (i + 1), "'" + column.name() + "'");
        }
        if (!compatible(column.jdbcType(), otherColumn.jdbcType())) {
          throw disagreement(schema, table, other, first, "column '" + otherColumn.name()
              + "' of type " + type(otherColumn), type(column));
        }
        merged.set(i, widest(column, otherColumn));
      }
    }
    return merged;
  }

  private static ModelException disagreement(String schema, TableSpec table,
      ShardColumns shard, ShardColumns first, String has,
      String firstHas) {
    return new ModelException(schema, table.name(), "columns", "shard '"
        + shard.table().shard() + "' has " + has + " where shard '" + first.table().shard()
        + "' has " + firstHas);
  }

  /**
   * Whether two shards' types hold the same values. Databases name some types differently
   * (PostgreSQL reports DECIMAL columns as NUMERIC and DOUBLE as FLOAT8, i.e. DOUBLE, where
   * H2 says DECIMAL and DOUBLE; drivers report BOOLEAN as BIT), so a mixed model compares
   * families, not codes.
   */
  private static boolean compatible(int type, int otherType) {
    return family(type) == family(otherType);
  }

  private static int family(int type) {
    if (CHARACTER_TYPES.contains(type)) {
      return Types.VARCHAR;
    }
    switch (type) {
    case Types.NUMERIC:
      return Types.DECIMAL;
    case Types.FLOAT:
      return Types.DOUBLE;
    case Types.BIT:
      return Types.BOOLEAN;
    default:
      return type;
    }
  }

  /** The first column's type, wide enough for both columns' values. */
  private static ColumnInfo widest(ColumnInfo column, ColumnInfo other) {
    int scale = Math.max(column.scale(), other.scale());
    int precision = column.jdbcType() == Types.DECIMAL || column.jdbcType() == Types.NUMERIC
        // Digits before the point and after it widen separately: (12, 2) and (10, 4) need
        // (14, 4).
        ? Math.max(column.precision() - column.scale(), other.precision() - other.scale())
            + scale
        : Math.max(column.precision(), other.precision());
    return new ColumnInfo(column.name(), column.jdbcType(), column.typeName(), precision, scale,
        column.nullable() || other.nullable(), column.fill().and(other.fill()));
  }

  private static void checkShardKey(String schema, TableSpec table, TableLayout layout) {
    for (String key : table.shardKey()) {
      if (layout.columnIndex(key) >= 0) {
        continue;
      }
      List<Integer> matches = layout.matchesIgnoringCase(key);
      throw new ModelException(schema, table.name(), "shardKey", matches.isEmpty()
          ? "column '" + key + "' does not exist; columns are "
              + String.join(", ", layout.columnNames())
          : "column '" + key + "' matches several columns ignoring case: "
              + String.join(", ", matches.stream().map(i -> layout.columnNames().get(i))
                  .toList()));
    }
  }

  private static String type(ColumnInfo column) {
    String jdbcName = column.jdbcTypeName();
    return jdbcName.equalsIgnoreCase(column.typeName())
        ? jdbcName : jdbcName + " (" + column.typeName() + ")";
  }

  private static String names(List<ColumnInfo> columns) {
    return String.join(", ", columns.stream().map(ColumnInfo::name).toList());
  }
}
