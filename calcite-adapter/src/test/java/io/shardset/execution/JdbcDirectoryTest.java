package io.shardset.execution;

import io.shardset.testing.TestPools;

import com.google.common.base.Ticker;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link JdbcDirectory}: lookups, the cache's expiry, size bound and invalidation. */
class JdbcDirectoryTest {
  private static final AtomicLong DATABASES = new AtomicLong();

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = new Ticker() {
    @Override public long read() {
      return nanos.get();
    }
  };
  private String url;
  private Connection db;

  @BeforeEach void createDirectory() throws SQLException {
    url = "jdbc:h2:mem:jdbcdirectory" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1";
    db = DriverManager.getConnection(url, "sa", "");
    execute("CREATE TABLE \"Tenants\" (\"tenant\" INTEGER PRIMARY KEY, SHARD VARCHAR(10))",
        "INSERT INTO \"Tenants\" VALUES (1, 's0'), (2, 's1'), (3, 's2')");
  }

  @AfterEach void dropDirectory() throws SQLException {
    execute("DROP ALL OBJECTS");
    db.close();
  }

  private void execute(String... sqls) throws SQLException {
    try (Statement s = db.createStatement()) {
      for (String sql : sqls) {
        s.execute(sql);
      }
    }
  }

  private JdbcDirectory directory(String table, String key, String shard, int size,
      int seconds) {
    return new JdbcDirectory(new JdbcDirectory.Settings(
        new ShardConnectionSettings("directory", url, "sa", "", null, 2), table, key, shard,
        size, seconds), TestPools.pools(), ticker);
  }

  private static BigDecimal key(int value) {
    return BigDecimal.valueOf(value);
  }

  @Test void looksUpEntriesMatchingNamesIgnoringCase() {
    JdbcDirectory directory = directory("TENANTS", "TENANT", "shard", 10, 30);
    directory.verify();
    assertEquals(Optional.of("s1"), directory.shardOf(key(2)));
    assertEquals(Optional.empty(), directory.shardOf(key(9)));
  }

  @Test void cachedEntriesExpire() throws SQLException {
    JdbcDirectory directory = directory("Tenants", "tenant", "SHARD", 10, 30);
    assertEquals(Optional.of("s0"), directory.shardOf(key(1)));
    execute("UPDATE \"Tenants\" SET SHARD = 's3' WHERE \"tenant\" = 1");
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(29));
    assertEquals(Optional.of("s0"), directory.shardOf(key(1)));
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(2));
    assertEquals(Optional.of("s3"), directory.shardOf(key(1)));
  }

  @Test void invalidatedEntriesAreReadAgain() throws SQLException {
    JdbcDirectory directory = directory("Tenants", "tenant", "SHARD", 10, 3600);
    assertEquals(Optional.of("s0"), directory.shardOf(key(1)));
    assertEquals(Optional.of("s1"), directory.shardOf(key(2)));
    execute("UPDATE \"Tenants\" SET SHARD = 's3'");
    directory.invalidate(key(1));
    assertEquals(Optional.of("s3"), directory.shardOf(key(1)));
    assertEquals(Optional.of("s1"), directory.shardOf(key(2)));
    directory.invalidateAll();
    assertEquals(Optional.of("s3"), directory.shardOf(key(2)));
  }

  @Test void missingEntriesAreNotCached() throws SQLException {
    JdbcDirectory directory = directory("Tenants", "tenant", "SHARD", 10, 3600);
    assertEquals(Optional.empty(), directory.shardOf(key(4)));
    execute("INSERT INTO \"Tenants\" VALUES (4, 's2')");
    assertEquals(Optional.of("s2"), directory.shardOf(key(4)));
  }

  @Test void theCacheIsBounded() throws SQLException {
    JdbcDirectory directory = directory("Tenants", "tenant", "SHARD", 1, 3600);
    assertEquals(Optional.of("s0"), directory.shardOf(key(1)));
    assertEquals(Optional.of("s1"), directory.shardOf(key(2)));
    execute("UPDATE \"Tenants\" SET SHARD = 's3'");
    // Only the most recent entry fits: key 1 was evicted and is read again.
    assertEquals(Optional.of("s3"), directory.shardOf(key(1)));
  }

  @Test void missingTableOrColumnNamesTheSetting() {
    assertEquals("table", assertThrows(JdbcDirectory.MissingException.class,
        () -> directory("NOPE", "tenant", "SHARD", 10, 30).verify()).setting());
    JdbcDirectory.MissingException e = assertThrows(JdbcDirectory.MissingException.class,
        () -> directory("Tenants", "tenant", "SHARD_NAME", 10, 30).verify());
    assertEquals("shardColumn", e.setting());
    assertEquals("column 'SHARD_NAME' does not exist in the directory table; its columns are"
        + " tenant, SHARD", e.getMessage());
  }
}
