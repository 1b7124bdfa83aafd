package io.shardset.reshard;

import io.shardset.execution.Secrets;
import io.shardset.model.ShardSpec;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/** Plain JDBC access to a shard for the resharding tool, outside any query's pool. */
final class ShardJdbc {
  private ShardJdbc() {
  }

  /** Opens a new connection to a shard with the model's URL, user and password. */
  static Connection open(ShardSpec shard) throws SQLException {
    if (shard.jdbcDriver() != null) {
      try {
        Class.forName(shard.jdbcDriver());
      } catch (ClassNotFoundException e) {
        throw new SQLException("shard '" + shard.name() + "': JDBC driver "
            + shard.jdbcDriver() + " not found", e);
      }
    }
    try {
      return DriverManager.getConnection(shard.jdbcUrl(), shard.jdbcUser(),
          shard.jdbcPassword());
    } catch (SQLException e) {
      // Drivers repeat the URL, with any password in it, in their messages.
      final Secrets secrets = Secrets.of(List.of(shard.jdbcUrl()),
          Collections.singletonList(shard.jdbcPassword()));
      throw (SQLException) Secrets.redactChain(e, secrets::redact);
    }
  }

  /** An identifier quoted as the database quotes it, keeping its exact case. */
  static String quote(DatabaseMetaData metaData, String identifier) throws SQLException {
    final String quote = metaData.getIdentifierQuoteString().trim();
    if (quote.isEmpty()) {
      return identifier;
    }
    return quote + identifier.replace(quote, quote + quote) + quote;
  }

  /**
   * A table's name as the shard's SQL says it: in the shard's {@code jdbcSchema} (or
   * {@code jdbcCatalog}) when the model names one, else unqualified.
   */
  static String tableName(ShardSpec shard, DatabaseMetaData metaData, String table)
      throws SQLException {
    final List<String> parts = new ArrayList<>();
    if (shard.jdbcCatalog() != null) {
      parts.add(shard.jdbcCatalog());
    }
    if (shard.jdbcSchema() != null) {
      parts.add(shard.jdbcSchema());
    }
    parts.add(table);
    final List<String> quoted = new ArrayList<>();
    for (String part : parts) {
      quoted.add(quote(metaData, part));
    }
    return quoted.stream().collect(Collectors.joining("."));
  }
}
