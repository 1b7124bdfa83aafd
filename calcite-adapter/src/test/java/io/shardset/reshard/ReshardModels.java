package io.shardset.reshard;

import io.shardset.execution.ShardConnectionSettings;
import io.shardset.model.ModelParser;
import io.shardset.model.ShardSetModel;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** Models over test databases, and plain JDBC to them, for the resharding tests. */
final class ReshardModels {
  /** The schema name of the tests' models. */
  static final String SCHEMA = "S";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ReshardModels() {
  }

  /** Parses an operand given as JSON text. */
  static ShardSetModel parse(String json) {
    try {
      return ModelParser.parse(SCHEMA,
          MAPPER.readValue(json, new TypeReference<Map<String, Object>>() { }),
          System::getenv);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The operand's {@code shards} array for the first {@code count} databases, s0 first. */
  static String shardsJson(List<ShardConnectionSettings> shards, int count) {
    final StringJoiner j = new StringJoiner(",\n ", "[", "]");
    for (ShardConnectionSettings shard : shards.subList(0, count)) {
      j.add("{\"name\": \"" + shard.shardName() + "\", \"jdbcUrl\": \"" + shard.jdbcUrl()
          + "\", \"jdbcUser\": \"" + shard.user() + "\", \"jdbcPassword\": \"\"}");
    }
    return j.toString();
  }

  /** Opens a plain connection to a test database. */
  static Connection connect(ShardConnectionSettings shard) throws SQLException {
    return DriverManager.getConnection(shard.jdbcUrl(), shard.user(), shard.password());
  }

  /** Runs statements on a test database. */
  static void execute(ShardConnectionSettings shard, String... sql) throws SQLException {
    try (Connection c = connect(shard); Statement s = c.createStatement()) {
      for (String statement : sql) {
        s.execute(statement);
      }
    }
  }
}
