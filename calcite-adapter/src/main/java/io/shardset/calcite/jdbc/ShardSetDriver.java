package io.shardset.calcite.jdbc;

import io.shardset.calcite.ShardTypeSystem;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.Driver;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * JDBC driver for {@code jdbc:shardset:} URLs: Calcite's driver, with the same connection
 * properties ({@code model=...}), whose statements are prepared through a {@link PlanCache}.
 *
 * <p>{@code jdbc:calcite:} stays Calcite's own driver, unchanged and uncached: Calcite registers
 * it and its prepare factory cannot be swapped for an existing URL prefix.
 */
public class ShardSetDriver extends Driver {
  /** The URL prefix this driver accepts. */
  public static final String CONNECT_STRING_PREFIX = "jdbc:shardset:";

  static {
    new ShardSetDriver().register();
  }

  private final PlanCache planCache;

  /** Creates a driver with a default-sized plan cache; {@link java.sql.DriverManager} uses this. */
  public ShardSetDriver() {
    this(new PlanCache(PlanCache.DEFAULT_MAXIMUM_SIZE));
  }

  /** Creates a driver whose connections share {@code planCache}. */
  public ShardSetDriver(PlanCache planCache) {
    super(null);
    this.planCache = Objects.requireNonNull(planCache, "planCache");
  }

  /** The plan cache of this driver's connections. */
  public PlanCache planCache() {
    return planCache;
  }

  /** Connects as Calcite's driver does, with {@link ShardTypeSystem} as
   * the type system unless the properties name one. */
  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    final Properties properties = new Properties();
    properties.putAll(info);
    if (properties.getProperty("typeSystem") == null && !url.contains("typeSystem=")) {
      properties.setProperty("typeSystem",
          ShardTypeSystem.class.getName() + "#INSTANCE");
    }
    return super.connect(url, properties);
  }

  @Override public CalcitePrepare createPrepare() {
    return new PlanCachingPrepare(planCache);
  }

  @Override protected String getConnectStringPrefix() {
    return CONNECT_STRING_PREFIX;
  }
}
