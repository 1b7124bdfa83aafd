package io.shardset.calcite;

import io.shardset.execution.ShardEndpoint;
import io.shardset.model.ColumnInfo;
import io.shardset.model.PhysicalTable;
import io.shardset.model.ShardColumns;
import io.shardset.model.ShardSpec;
import io.shardset.model.SubpartitionSpec;
import io.shardset.model.TableSpec;
import io.shardset.routing.Directory;
import io.shardset.topology.IdentifierQuoting;

import org.apache.calcite.sql.SqlDialect;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shard metadata declared rather than read: each table's columns, written once as
 * {@code NAME TYPE[(p[, s])] [NOT NULL]}, and each shard's product, named by its JDBC URL.
 * Nothing here opens a connection; a query that would run fails.
 *
 * <p>Each shard reports a physical table the way its product stores the unquoted
 * identifiers of {@code CREATE TABLE ORDERS (ORDER_ID ...)}: PostgreSQL in lower case, H2 in
 * upper case, MariaDB as written. The logical names are then the declared ones, as
 * {@link io.shardset.topology.TableLayoutReader} derives them from real shards.
 */
final class DeclaredShardMetadata implements ShardMetadata {
  private static final Pattern COLUMN = Pattern.compile(
      "(\\w+)\\s+(\\w+(?: \\w+)??)(?:\\((\\d+)(?:,\\s*(\\d+))?\\))?(\\s+NOT NULL)?");

  private final Map<String, List<ColumnInfo>> columns;

  /**
   * Creates metadata that declares the given columns.
   *
   * @param columns each table's columns, by table name
   */
  DeclaredShardMetadata(Map<String, List<ColumnInfo>> columns) {
    this.columns = Map.copyOf(columns);
  }

  /** Parses one declared column, e.g. {@code AMOUNT DECIMAL(12, 2) NOT NULL}. */
  static ColumnInfo column(String declaration) {
    final Matcher m = COLUMN.matcher(declaration.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a column: '" + declaration
          + "'; write NAME TYPE[(precision[, scale])] [NOT NULL]");
    }
    final String type = m.group(2).toUpperCase(Locale.ROOT);
    final int precision = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
    final int scale = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
    return new ColumnInfo(m.group(1), JDBCType.valueOf(type).getVendorTypeNumber(), type,
        precision, scale, m.group(5) == null);
  }

  @Override public ShardEndpoint endpoint(ShardSpec shard) {
    return new UnreachableEndpoint(shard.name());
  }

  @Override public ShardColumns columns(ShardSpec shard, TableSpec table) {
    return physical(shard, table, table.physicalName());
  }

  @Override public List<ShardColumns> subpartitionColumns(ShardSpec shard, TableSpec table) {
    final SubpartitionSpec spec = Objects.requireNonNull(table.subpartitions(), "subpartitions");
    final List<ShardColumns> parts = new ArrayList<>();
    for (int i = 0; i < spec.ranges().size(); i++) {
      parts.add(physical(shard, table, spec.physicalName(i)));
    }
    return parts;
  }

  private ShardColumns physical(ShardSpec shard, TableSpec table, String physicalName) {
    final List<ColumnInfo> declared = Objects.requireNonNull(columns.get(table.name()),
        () -> "no columns declared for table " + table.name());
    final boolean lowerCase = RecordedProducts.Product.ofUrl(shard.jdbcUrl())
        == RecordedProducts.Product.POSTGRESQL;
    final List<String> names = declared.stream()
        .map(c -> lowerCase ? c.name().toLowerCase(Locale.ROOT) : c.name()).toList();
    return new ShardColumns(new PhysicalTable(shard.name(), shard.jdbcCatalog(),
        shard.jdbcSchema(), lowerCase ? physicalName.toLowerCase(Locale.ROOT) : physicalName,
        names), declared);
  }

  @Override public IdentifierQuoting quoting(ShardSpec shard) {
    return RecordedProducts.Product.ofUrl(shard.jdbcUrl()).quoting();
  }

  @Override public SqlDialect dialect(ShardSpec shard) {
    return RecordedProducts.Product.ofUrl(shard.jdbcUrl()).dialect();
  }

  @Override public @Nullable Directory directory(TableSpec table) {
    return table.directory() == null ? null : new UnreadableDirectory(table.name());
  }

  @Override public void close() {
  }

  /** A shard that planning may name but never connect to. */
  private record UnreachableEndpoint(String name) implements ShardEndpoint {
    @Override public Connection connect() throws SQLException {
      throw new SQLException("shard " + name + " is declared for planning only");
    }

    @Override public String redact(String message) {
      return message;
    }
  }

  /** A lookup table's directory, which planning never reads: lookups route at execution. */
  private record UnreadableDirectory(String table) implements Directory {
    @Override public Optional<String> shardOf(Comparable<?> key) {
      throw new IllegalStateException("the directory of " + table
          + " is declared for planning only");
    }
  }
}
