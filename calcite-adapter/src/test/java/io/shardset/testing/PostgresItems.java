package io.shardset.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * Four PostgreSQL shard databases {@code s0..s3} of one table {@code ITEMS (ID, V, PAD)},
 * range-sharded by ID (shard i holds {@code i * 1000000 + 1 ...}), for tests of what scans
 * leave open on the shards; and the model over them.
 */
public final class PostgresItems {
  /** Where the ids of shard s3 start. */
  public static final long S3_START = 3_000_000;

  private final List<String> databases;
  private final int rowsPerShard;

  private PostgresItems(List<String> databases, int rowsPerShard) {
    this.databases = databases;
    this.rowsPerShard = rowsPerShard;
  }

  /** Creates the databases (skipping the test without a server) and fills them. */
  public static PostgresItems create(String prefix, int rowsPerShard) throws SQLException {
    PostgresServer.require();
    final List<String> databases = PostgresServer.createDatabases(prefix, 4);
    for (int i = 0; i < databases.size(); i++) {
      try (Connection c = DriverManager.getConnection(PostgresServer.url(databases.get(i)),
          PostgresServer.USER, "");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, v INT, pad VARCHAR(100))");
        s.execute("INSERT INTO items SELECT " + (i * 1_000_000) + " + g, g % 7,"
            + " repeat('x', 100) FROM generate_series(1, " + rowsPerShard + ") g");
      }
    }
    return new PostgresItems(databases, rowsPerShard);
  }

  /** The shards' databases, s0 first. */
  public List<String> databases() {
    return databases;
  }

  public int rowsPerShard() {
    return rowsPerShard;
  }

  /** Drops the databases. */
  public void drop() throws SQLException {
    PostgresServer.drop(databases);
  }

  /** The model, every shard reached directly, with these extra shard settings. */
  public String model(String shardSettings) {
    return model(shardSettings, 0, "");
  }

  /**
   * The model.
   *
   * @param shardSettings JSON entries added to every shard, e.g. {@code "connectTimeout": 1000}
   * @param s3Port the port shard s3 is reached on (a proxy), or 0 for the server's
   * @param moreSchemas JSON of further schemas, each followed by a comma, or empty
   */
  public String model(String shardSettings, int s3Port, String moreSchemas) {
    final List<String> shards = new ArrayList<>();
    for (int i = 0; i < databases.size(); i++) {
      final String url = i == 3 && s3Port > 0
          ? "jdbc:postgresql://127.0.0.1:" + s3Port + "/" + databases.get(i)
          : PostgresServer.url(databases.get(i));
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"" + url + "\","
          + " \"jdbcUser\": \"postgres\", \"jdbcSchema\": \"public\""
          + (shardSettings.isEmpty() ? "" : ", " + shardSettings) + "}");
    }
    return "{\"version\": \"1.0\", \"defaultSchema\": \"" + ShardFixture.SCHEMA + "\","
        + " \"schemas\": [" + moreSchemas
        + "{\"name\": \"" + ShardFixture.SCHEMA + "\", \"type\": \"custom\","
        + " \"factory\": \"io.shardset.calcite.ShardSchemaFactory\", \"operand\": {"
        + "\"shards\": [" + String.join(",\n", shards) + "],"
        + " \"tables\": ["
        + "{\"name\": \"ITEMS\", \"physicalName\": \"items\", \"method\": \"range\","
        + " \"shardKey\": \"ID\", \"shards\": [\"s0\", \"s1\", \"s2\", \"s3\"], \"ranges\": ["
        + "{\"shard\": \"s0\", \"to\": 1000000},"
        + " {\"shard\": \"s1\", \"from\": 1000000, \"to\": 2000000},"
        + " {\"shard\": \"s2\", \"from\": 2000000, \"to\": 3000000},"
        + " {\"shard\": \"s3\", \"from\": " + S3_START + "}]}]}}]}";
  }

  /** Sessions of the shard databases in a transaction or running a statement. */
  public int busySessions() {
    return sessions("state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')");
  }

  /** Sessions of the shard databases idle in a transaction for {@code seconds} or more. */
  public int sessionsIdleInTransactionFor(int seconds) {
    return sessions("state LIKE 'idle in transaction%'"
        + " AND state_change < now() - interval '" + seconds + " seconds'");
  }

  /** The sessions of the shard databases that meet {@code condition} on pg_stat_activity. */
  private int sessions(String condition) {
    try (Connection c = PostgresServer.admin(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE "
             + condition + " AND datname IN ('" + String.join("', '", databases) + "')")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  /** Polls until the value shows, for at most 60 s. */
  public static void awaitValue(int expected, IntSupplier value) {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    int last;
    while ((last = value.getAsInt()) != expected) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("expected " + expected + ", still " + last);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }
}
