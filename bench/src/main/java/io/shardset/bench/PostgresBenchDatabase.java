package io.shardset.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The benchmark data in PostgreSQL at 127.0.0.1:5432 (user postgres, no password): databases
 * {@code shardset_bench_<orders>_s0..s3} and {@code shardset_bench_<orders>_all}. Tables are
 * created without keys, loaded with batched inserts that the driver rewrites into multi-row
 * INSERTs, then indexed and analyzed; a one-row table BENCH_META in each database records
 * the completed load, so that later runs reuse it.
 */
public final class PostgresBenchDatabase implements BenchDatabase {
  private static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
  private static final String USER = "postgres";

  private final BenchData data;

  private PostgresBenchDatabase(BenchData data) {
    this.data = Objects.requireNonNull(data, "data");
  }

  /** The database of {@code data}, created and loaded unless an earlier run left it complete. */
  public static PostgresBenchDatabase open(BenchData data) throws Exception {
    final PostgresBenchDatabase db = new PostgresBenchDatabase(data);
    db.ensureLoaded();
    return db;
  }

  /** Whether the server answers; a benchmark without it runs on H2 only. */
  public static boolean reachable() {
    DriverManager.setLoginTimeout(3);
    try (Connection ignored = DriverManager.getConnection(SERVER + "postgres", USER, "")) {
      return true;
    } catch (SQLException e) {
      return false;
    } finally {
      DriverManager.setLoginTimeout(0);
    }
  }

  @Override public String backend() {
    return "PostgreSQL";
  }

  /** PostgreSQL folds unquoted names to lower case. */
  @Override public String physicalName(String name) {
    return name.toLowerCase(java.util.Locale.ROOT);
  }

  @Override public BenchData data() {
    return data;
  }

  @Override public JdbcEndpoint database(String name) {
    return new JdbcEndpoint(SERVER + databaseName(name) + "?reWriteBatchedInserts=true", USER, "",
        "public");
  }

  private String databaseName(String name) {
    return "shardset_bench_" + data.orders() + "_" + name;
  }

  private void ensureLoaded() throws SQLException {
    if (loaded()) {
      return;
    }
    try (Connection c = DriverManager.getConnection(SERVER + "postgres", USER, "");
         Statement s = c.createStatement()) {
      for (int i = 0; i <= SHARDS; i++) {
        final String name = databaseName(i < SHARDS ? "s" + i : UNSHARDED);
        s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        s.execute("CREATE DATABASE " + name);
      }
    }
    for (JdbcEndpoint db : all()) {
      BenchLoader.execute(db, BenchData.TABLES);
    }
    final long start = System.nanoTime();
    BenchLoader.loadShards(this);
    BenchLoader.loadUnsharded(this);
    final List<String> finish = new ArrayList<>(BenchData.KEYS);
    finish.add("ANALYZE");
    finish.add("CREATE TABLE BENCH_META (ORDERS BIGINT NOT NULL)");
    finish.add("INSERT INTO BENCH_META VALUES (" + data.orders() + ")");
    for (JdbcEndpoint db : all()) {
      BenchLoader.execute(db, finish);
    }
    System.out.printf(Locale.ROOT, "Loaded %,d orders into PostgreSQL databases %s in %.1f s%n",
        data.orders(), databaseName("*"), (System.nanoTime() - start) / 1e9);
  }

  /** Whether every database exists and records a completed load of this size. */
  private boolean loaded() {
    for (JdbcEndpoint db : all()) {
      try (Connection c = db.connect(); Statement s = c.createStatement();
           ResultSet rs = s.executeQuery("SELECT ORDERS FROM BENCH_META")) {
        if (!rs.next() || rs.getLong(1) != data.orders()) {
          return false;
        }
      } catch (SQLException e) {
        return false;
      }
    }
    return true;
  }
}
