package io.shardset.write;

import io.shardset.topology.ShardSite;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Sends rows as statements of many rows each ({@code INSERT ... VALUES (...), (...)}, or the
 * shard's upsert of many rows): one round trip for up to {@link #MAX_PARAMETERS} values
 * rather than one per row, which JDBC batches of MariaDB's and H2's drivers still make.
 */
public final class MultiRowSender implements RowSender {
  /**
   * Parameters of one statement at most: PostgreSQL's and MariaDB's protocols count them in
   * 16 bits; half of that keeps statements moderate on every database.
   */
  static final int MAX_PARAMETERS = 32_767;
  /** Rows of one statement at most: beyond this, longer statements gain nothing. */
  static final int MAX_ROWS = 1_000;

  private final IntFunction<String> sql;
  private final int columns;
  /** The key columns an upsert deduplicates by; empty for a plain insert. */
  private final List<Integer> key;
  private final int rowsPerStatement;
  /** The statement of {@link #rowsPerStatement} rows, kept for the connection it is of. */
  private @Nullable PreparedStatement full;
  private @Nullable Connection fullOn;

  private MultiRowSender(IntFunction<String> sql, int columns, List<Integer> key) {
    this.sql = sql;
    this.columns = columns;
    this.key = List.copyOf(key);
    this.rowsPerStatement = Math.max(1, Math.min(MAX_ROWS, MAX_PARAMETERS / columns));
  }

  /** Plain inserts into the table at {@code site}. */
  public static MultiRowSender insert(ShardSite site) {
    return new MultiRowSender(rows -> InsertSql.of(site, rows), site.physicalColumns().size(),
        List.of());
  }

  /**
   * Upserts into the table at {@code site} in its shard's {@code form}: a row whose key the
   * table holds gets the row's other columns. Of rows with the same key in one call, the last
   * wins, as if they were upserted one after the other.
   */
  public static MultiRowSender upsert(ShardSite site, UpsertForm form, List<Integer> key) {
    final List<Integer> others = new ArrayList<>();
    for (int i = 0; i < site.physicalColumns().size(); i++) {
      if (!key.contains(i)) {
        others.add(i);
      }
    }
    final UpsertSpec spec = new UpsertSpec(key, others,
        others.stream().map(i -> true).toList(), List.of(form));
    return new MultiRowSender(rows -> UpsertSql.of(site, form, spec, rows).sql(),
        site.physicalColumns().size(), key);
  }

  @Override public void send(Connection connection, List<Object[]> rows) throws SQLException {
    final List<Object[]> distinct = key.isEmpty() ? rows : lastPerKey(rows);
    for (int from = 0; from < distinct.size(); from += rowsPerStatement) {
      final int count = Math.min(rowsPerStatement, distinct.size() - from);
      if (count == rowsPerStatement) {
        run(full(connection), distinct, from, count);
      } else {
        try (PreparedStatement tail = connection.prepareStatement(sql.apply(count))) {
          run(tail, distinct, from, count);
        }
      }
    }
  }

  private PreparedStatement full(Connection connection) throws SQLException {
    if (full == null || fullOn != connection) {
      close();
      full = connection.prepareStatement(sql.apply(rowsPerStatement));
      fullOn = connection;
    }
    return full;
  }

  private void run(PreparedStatement statement, List<Object[]> rows, int from, int count)
      throws SQLException {
    int parameter = 1;
    for (int r = from; r < from + count; r++) {
      final Object[] row = rows.get(r);
      for (int i = 0; i < columns; i++) {
        statement.setObject(parameter++, row[i]);
      }
    }
    statement.executeUpdate();
  }

  /** The rows, of those with equal keys only the last, in the order of first appearance. */
  private List<Object[]> lastPerKey(List<Object[]> rows) {
    final Map<List<Object>, Object[]> byKey = new LinkedHashMap<>();
    for (Object[] row : rows) {
      final List<Object> values = new ArrayList<>(key.size());
      for (int column : key) {
        final Object value = row[column];
        // Arrays compare by identity; their contents are the key.
        values.add(value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value);
      }
      byKey.put(values, row);
    }
    return byKey.size() == rows.size() ? rows : new ArrayList<>(byKey.values());
  }

  @Override public void close() {
    if (full != null) {
      try {
        full.close();
      } catch (SQLException e) {
        // The connection's owner closes what is left.
      }
      full = null;
      fullOn = null;
    }
  }
}
