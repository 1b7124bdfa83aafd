package io.shardset.clients;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.remote.ShardSetRemoteDriver;

import org.apache.commons.dbcp2.BasicDataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The connection pools the client tests put in front of ShardSet, each over ShardSet's own
 * driver, embedded or remote; closes every pool it made.
 */
final class Pools implements AutoCloseable {
  /** A pool library. */
  enum Kind { HIKARI, DBCP2 }

  /** Where the pool's connections go. */
  enum Target { EMBEDDED, REMOTE }

  private final ShardedFixture fixture;
  private final Map<String, DataSource> open = new LinkedHashMap<>();

  Pools(ShardedFixture fixture) {
    this.fixture = fixture;
  }

  /** The pool of this kind to this target, made on first use; at most two connections, so
   * that the tests reuse connections others have given back. */
  DataSource pool(Kind kind, Target target) throws SQLException {
    final String name = kind + "-" + target;
    DataSource pool = open.get(name);
    if (pool == null) {
      pool = create(kind, target);
      open.put(name, pool);
    }
    return pool;
  }

  private DataSource create(Kind kind, Target target) throws SQLException {
    final String url = target == Target.EMBEDDED ? fixture.embeddedUrl() : fixture.remoteUrl();
    final String driver = target == Target.EMBEDDED ? ShardSetDriver.class.getName()
        : ShardSetRemoteDriver.class.getName();
    if (kind == Kind.HIKARI) {
      final HikariConfig config = new HikariConfig();
      config.setDriverClassName(driver);
      config.setJdbcUrl(url);
      config.setMaximumPoolSize(2);
      config.setMinimumIdle(0);
      config.setPoolName("clients-" + kind + "-" + target);
      return new HikariDataSource(config);
    }
    final BasicDataSource pool = new BasicDataSource();
    pool.setDriverClassName(driver);
    pool.setUrl(url);
    pool.setMaxTotal(2);
    // dbcp2's default, stated because the tests rely on it: a connection given back is
    // rolled back and returned to autocommit.
    pool.setRollbackOnReturn(true);
    pool.setAutoCommitOnReturn(true);
    return pool;
  }

  @Override public void close() throws Exception {
    for (DataSource pool : open.values()) {
      ((AutoCloseable) pool).close();
    }
  }
}
