package io.shardset.execution;

import io.shardset.testing.TestPools;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link ShardPools} and {@link ShardConnectionSettings}. */
class ShardPoolsTest {
  private static final String URL = "jdbc:h2:mem:shard_pools_test;DB_CLOSE_DELAY=-1";

  private final ShardPools pools = TestPools.pools();

  @Test void sameSettingsShareOneEndpoint() {
    ShardEndpoint first = pools.endpoint(new ShardConnectionSettings("p0", URL, "sa", "",
        null));
    ShardEndpoint second = pools.endpoint(new ShardConnectionSettings("p0", URL, "sa", "",
        null, ShardConnectionSettings.DEFAULT_MAX_POOL_SIZE));
    assertSame(first, second);
    assertEquals("p0", first.name());
  }

  @Test void differentSettingsGetDifferentEndpoints() {
    ShardEndpoint base = pools.endpoint(new ShardConnectionSettings("p1", URL, "sa", "",
        null));
    assertNotSame(base, pools.endpoint(new ShardConnectionSettings("p1", URL, "sa", "",
        null, 2)));
    assertNotSame(base, pools.endpoint(new ShardConnectionSettings("p1", URL, "sa", "x",
        null)));
    assertNotSame(base, pools.endpoint(new ShardConnectionSettings("p2", URL, "sa", "",
        null)));
  }

  @Test void countsCheckedOutConnections() throws SQLException {
    ShardEndpoint endpoint = pools.endpoint(new ShardConnectionSettings("p3", URL, "sa",
        "", null));
    assertEquals(0, ShardPools.activeConnections(endpoint));
    try (Connection first = endpoint.connect()) {
      try (Connection second = endpoint.connect()) {
        assertEquals(2, ShardPools.activeConnections(endpoint));
      }
      assertEquals(1, ShardPools.activeConnections(endpoint));
    }
    assertEquals(0, ShardPools.activeConnections(endpoint));
  }

  @Test void activeConnectionsRejectsOtherEndpoints() {
    ShardEndpoint other = new ShardEndpoint() {
      @Override public String name() {
        return "other";
      }

      @Override public Connection connect() {
        throw new UnsupportedOperationException();
      }

      @Override public String redact(String message) {
        return message;
      }
    };
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ShardPools.activeConnections(other));
    assertEquals("endpoint of shard 'other' is not a ShardPools endpoint", e.getMessage());
  }

  @Test void toStringHidesPasswords() {
    ShardConnectionSettings settings = new ShardConnectionSettings("s1",
        "jdbc:postgresql://db:5432/s1?user=app&password=hunter3&ssl=true", "app", "hunter2",
        "org.postgresql.Driver", 4);
    assertEquals("ShardConnectionSettings[shardName=s1,"
        + " jdbcUrl=jdbc:postgresql://db:5432/s1?user=app&password=****&ssl=true, user=app,"
        + " password=****, driverClass=org.postgresql.Driver, maxPoolSize=4,"
        + " connectTimeoutMillis=10000, statementTimeoutMillis=0, socketTimeoutMillis=300000,"
        + " tcpKeepAlive=true, acquireTimeoutMillis=30000, lockTimeoutMillis=-1]",
        settings.toString());
    assertEquals("ShardConnectionSettings[shardName=s0, jdbcUrl=jdbc:h2:mem:s0, user=null,"
        + " password=null, driverClass=null, maxPoolSize=8, connectTimeoutMillis=10000,"
        + " statementTimeoutMillis=0, socketTimeoutMillis=300000, tcpKeepAlive=true,"
        + " acquireTimeoutMillis=30000, lockTimeoutMillis=-1]",
        new ShardConnectionSettings("s0", "jdbc:h2:mem:s0", null, null, null).toString());
  }

  @Test void endpointRedactsEveryPassword() {
    ShardEndpoint endpoint = pools.endpoint(new ShardConnectionSettings("p4",
        "jdbc:h2:mem:shard_pools_redact;PASSWORD=hunter3", "sa", "hunter2", null));
    assertEquals("user sa, password ****, url password ****",
        endpoint.redact("user sa, password hunter2, url password hunter3"));
  }

  @Test void rejectsAPoolSizeBelowOne() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ShardConnectionSettings("s1", URL, "sa", "", null, 0));
    assertEquals("maxPoolSize of shard 's1' must be at least 1, got 0", e.getMessage());
  }

  @Test void reportsAMissingDriverClassNamingTheShard() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> pools.endpoint(new ShardConnectionSettings("p5", URL, "sa", "",
            "no.such.Driver")));
    assertEquals("cannot create the connection pool of shard 'p5': Failed to load driver class"
        + " no.such.Driver in either of HikariConfig class loader or Thread context classloader",
        e.getMessage());
  }
}
