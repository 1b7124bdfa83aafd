package io.shardset.reshard;

import io.shardset.model.MoveTables;
import io.shardset.testing.PostgresServer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Where the databases of a resharding test live: shards s0..s4 (s4 outside the model at
 * first) and an unsharded "oracle", on H2 or PostgreSQL; how to connect to one, empty one,
 * name one in a model, and find the move tables left on them.
 *
 * @param url the JDBC URL of a database by name
 * @param user the user to connect as, or null for H2's default
 * @param h2 whether the databases are H2 ones, which their users shut down and whose shard
 *     tables get the {@link TouchedRows} trigger
 * @param wipe the statements that empty a database
 */
record FamilyShards(UnaryOperator<String> url, @Nullable String user, boolean h2,
    List<String> wipe) {
  /** The schema name of every resharding test's model. */
  static final String SCHEMA = "S";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * H2 databases.
   *
   * @param prefix the start of every database name
   * @param files whether the databases are files in {@code folder} that other processes can
   *     open too, rather than in memory
   */
  static FamilyShards h2(Path folder, String prefix, boolean files) {
    return new FamilyShards(name -> files
        ? "jdbc:h2:" + folder.resolve(prefix + "_" + name).toAbsolutePath()
            + ";AUTO_SERVER=TRUE"
        : "jdbc:h2:mem:" + prefix + "_" + name + ";DB_CLOSE_DELAY=-1", null, true,
        List.of("DROP ALL OBJECTS"));
  }

  /** PostgreSQL databases, for s0..s4 and (if there is a sixth) the oracle in this order. */
  static FamilyShards postgres(List<String> databases) {
    return new FamilyShards(name -> PostgresServer.url(databases.get(
        name.equals("oracle") ? 5 : Integer.parseInt(name.substring(1)))),
        PostgresServer.USER, false, List.of("DROP SCHEMA public CASCADE", "CREATE SCHEMA public"));
  }

  /** A plain connection to one of the databases (a shard or "oracle"). */
  Connection connect(String name) throws SQLException {
    return user == null ? DriverManager.getConnection(url.apply(name))
        : DriverManager.getConnection(url.apply(name), user, "");
  }

  /** Empties a database. */
  void wipe(String name) throws SQLException {
    try (Connection c = connect(name); Statement s = c.createStatement()) {
      for (String sql : wipe) {
        s.execute(sql);
      }
    }
  }

  /** The model's object for a shard, as a model file and an add-shard operation take it. */
  Map<String, Object> shard(String name) {
    final Map<String, Object> shard = new LinkedHashMap<>();
    shard.put("name", name);
    shard.put("jdbcUrl", url.apply(name));
    if (user != null) {
      shard.put("jdbcUser", user);
      shard.put("jdbcPassword", "");
    }
    return shard;
  }

  /** The model's {@code shards} entries for s0..s{count - 1}, as JSON. */
  String shardsJson(int count) {
    final StringJoiner list = new StringJoiner(",\n    ");
    for (int i = 0; i < count; i++) {
      try {
        list.add(MAPPER.writeValueAsString(shard("s" + i)));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
    return list.toString();
  }

  /**
   * Every row of one physical table on a shard, values joined by "|", each checked to sit on
   * the shard that {@code owners} routes its key to.
   *
   * @param table the logical table, for the failure message
   */
  List<String> placedRows(String shard, String physical, String table, RowOwners owners)
      throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (Connection c = connect(shard);
         Statement s = c.createStatement();
         ResultSet r = s.executeQuery("SELECT * FROM " + physical)) {
      final int width = r.getMetaData().getColumnCount();
      while (r.next()) {
        final StringJoiner row = new StringJoiner("|");
        for (int i = 1; i <= width; i++) {
          row.add(String.valueOf(r.getObject(i)));
        }
        final List<Object> key = new ArrayList<>();
        for (int k : owners.keyColumns()) {
          key.add(r.getObject(k + 1));
        }
        final String owner = owners.ownerOf(key);
        if (!owner.equals(shard)) {
          throw new AssertionError(table + " row " + row + " is read on " + shard + " ("
              + physical + ") but routes to " + owner);
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  /** The move tables on shards s0..s{shards - 1}, by shard; shards without any left out. */
  Map<String, List<String>> moveTables(int shards) throws SQLException {
    final Map<String, List<String>> found = new TreeMap<>();
    for (int i = 0; i < shards; i++) {
      try (Connection c = connect("s" + i);
           ResultSet r = c.getMetaData().getTables(null, null, "%", null)) {
        while (r.next()) {
          final String name = r.getString("TABLE_NAME");
          if (name.toLowerCase(Locale.ROOT).endsWith(MoveTables.SUFFIX)) {
            found.computeIfAbsent("s" + i, k -> new ArrayList<>()).add(name);
          }
        }
      }
    }
    return found;
  }
}
