package io.shardset.bench;

import java.sql.SQLException;
import java.util.Objects;

/**
 * The benchmark's empty tables in in-memory H2 databases that live until the JVM ends, as a
 * {@link BenchDatabase}: enough for the systems to open and for the write workloads, which
 * write into a table of their own.
 */
final class MemBenchDatabase implements BenchDatabase {
  private final String prefix;
  private final BenchData data;

  private MemBenchDatabase(String prefix, BenchData data) {
    this.prefix = Objects.requireNonNull(prefix, "prefix");
    this.data = Objects.requireNonNull(data, "data");
  }

  /** Creates the databases, named by {@code prefix}, with the benchmark's empty tables. */
  static MemBenchDatabase create(String prefix, BenchData data) throws SQLException {
    final MemBenchDatabase db = new MemBenchDatabase(prefix, data);
    for (JdbcEndpoint database : db.all()) {
      BenchLoader.execute(database, BenchData.DDL);
    }
    return db;
  }

  @Override public String backend() {
    return "H2 in memory";
  }

  @Override public BenchData data() {
    return data;
  }

  @Override public JdbcEndpoint database(String name) {
    return Models.h2Endpoint("jdbc:h2:mem:" + prefix + "-" + name + ";DB_CLOSE_DELAY=-1");
  }
}
