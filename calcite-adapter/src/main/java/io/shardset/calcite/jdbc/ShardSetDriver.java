package io.shardset.calcite.jdbc;

import io.shardset.calcite.OpenScans;
import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.ShardTypeSystem;
import io.shardset.calcite.guard.ActivitySettings;
import io.shardset.calcite.guard.ConnectionScatter;
import io.shardset.calcite.prepare.PlanCache;
import io.shardset.calcite.prepare.PlanCachingPrepare;
import io.shardset.calcite.prepare.ShardSchemas;
import io.shardset.calcite.relations.StatementTables;
import io.shardset.calcite.relations.SystemTable;
import io.shardset.session.SessionOwner;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Handler;
import org.apache.calcite.avatica.InternalProperty;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteMetaColumnFactory;
import org.apache.calcite.jdbc.CalciteMetaColumnFactoryImpl;
import org.apache.calcite.jdbc.CalciteMetaTableFactory;
import org.apache.calcite.jdbc.CalciteMetaTableFactoryImpl;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.Driver;
import org.apache.calcite.jdbc.ShardSetJdbcFactory;
import org.apache.calcite.schema.SchemaPlus;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * JDBC driver for {@code jdbc:shardset:} URLs: Calcite's driver, with the same connection
 * properties ({@code model=...}), whose statements are prepared through a {@link PlanCache}.
 *
 * <p>Closing a connection closes its statements, as JDBC requires and Calcite does not, and
 * closing a statement or connection closes every shard scan it started (see
 * {@link OpenScans}), also those an error left without a ResultSet. Closing a connection also
 * releases its ShardSet schemas' hold on their models' pools ({@link ShardSchema#release()}),
 * so that a model's pools close with its last connection.
 *
 * <p>{@code jdbc:calcite:} stays Calcite's own driver, unchanged and uncached: Calcite registers
 * it and its prepare factory cannot be swapped for an existing URL prefix.
 */
public class ShardSetDriver extends Driver {
  private static final Logger LOG = LoggerFactory.getLogger(ShardSetDriver.class);

  /** The URL prefix this driver accepts. */
  public static final String CONNECT_STRING_PREFIX = "jdbc:shardset:";

  /** The URL prefix of the remote driver, {@code io.shardset.calcite.remote}'s, which this
   * driver leaves to it. */
  public static final String REMOTE_CONNECT_STRING_PREFIX = CONNECT_STRING_PREFIX + "remote:";

  /**
   * The function libraries (Calcite's {@code fun} property) of connections that name none,
   * and of a ShardSet server's sessions unless it is told otherwise: the standard operators
   * and PostgreSQL's functions ({@code CONCAT}, {@code LEFT}, {@code RIGHT}, {@code SUBSTR},
   * {@code LENGTH}, {@code ILIKE}...), which jOOQ's PostgreSQL and H2 dialects, Spring and BI
   * tools emit. Not MySQL's as well: whatever the order of the list, Calcite then takes MySQL's
   * {@code CONCAT}, which is NULL when any argument is (PostgreSQL's and H2's skip NULLs), and
   * MySQL's {@code SUBSTR}, which counts a negative start from the end.
   */
  public static final String DEFAULT_FUNCTIONS = "standard,postgresql";

  /**
   * The SQL conformance (Calcite's {@code conformance} property) of connections that name
   * none, the one a ShardSet server's sessions get too: BI tools (Tableau, say) write
   * {@code GROUP BY 1} and {@code ORDER BY} select-list aliases, which Calcite's default
   * conformance rejects.
   */
  public static final String DEFAULT_CONFORMANCE = "LENIENT";

  /** The meter of the plan cache's hits and misses. */
  public static final String PLAN_CACHE_METER = "shardset.plan.cache";

  /** SQLState of a connection property whose value is not one it takes. */
  private static final String INVALID_PROPERTY = "HY024";

  static {
    new ShardSetDriver().register();
  }

  private final PlanCache planCache;
  private final AtomicBoolean planCacheMetered = new AtomicBoolean();

  /** Creates a driver with a default-sized plan cache; {@link java.sql.DriverManager} uses this. */
  public ShardSetDriver() {
    this(new PlanCache(PlanCache.DEFAULT_MAXIMUM_SIZE));
  }

  /** Creates a driver whose connections share {@code planCache}. */
  public ShardSetDriver(PlanCache planCache) {
    super(null);
    this.planCache = Objects.requireNonNull(planCache, "planCache");
  }

  /**
   * Puts the plan cache's hits and misses on the runtime's meters
   * ({@value #PLAN_CACHE_METER}, tagged {@code result=hit} and {@code miss}), when the first
   * connection opens: loading the driver class (which DriverManager does for any JDBC URL)
   * must not start ShardSet's runtime.
   */
  private void meterPlanCache() {
    if (planCacheMetered.compareAndSet(false, true)) {
      final MeterRegistry registry =
          runtime().execution().scanServices().metrics().registry();
      FunctionCounter.builder(PLAN_CACHE_METER, planCache, PlanCache::hits)
          .description("statements prepared from the plan cache").tag("result", "hit")
          .register(registry);
      FunctionCounter.builder(PLAN_CACHE_METER, planCache, PlanCache::plans)
          .description("statements planned anew").tag("result", "miss")
          .register(registry);
    }
  }

  /**
   * The process's runtime, which this driver's connections use: the one their schemas use,
   * which Calcite's schema factory finds the same way. The driver is one of the entry points
   * Calcite and {@link java.sql.DriverManager} create by class name, where the runtime is
   * looked up; everything else gets it passed.
   */
  private static ShardSetRuntime runtime() {
    return ShardSetRuntime.get();
  }

  /** The runtime's registry of the scans this driver's connections close. */
  private static OpenScans openScans() {
    return runtime().openScans();
  }

  /** The plan cache of this driver's connections. */
  public PlanCache planCache() {
    return planCache;
  }

  /** Connects as Calcite's driver does, with {@link ShardTypeSystem} as the type system,
   * {@link #DEFAULT_FUNCTIONS} as the function libraries and {@link #DEFAULT_CONFORMANCE} as
   * the conformance unless the properties name others. */
  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    final Properties properties = new Properties();
    properties.putAll(info);
    try {
      ConnectionScatter.limit(properties);
      ActivitySettings.of(properties);
    } catch (IllegalArgumentException e) {
      throw new SQLException(e.getMessage(), INVALID_PROPERTY, e);
    }
    meterPlanCache();
    setUnlessNamed(properties, url, "typeSystem", ShardTypeSystem.class.getName() + "#INSTANCE");
    setUnlessNamed(properties, url, "fun", DEFAULT_FUNCTIONS);
    setUnlessNamed(properties, url, "conformance", DEFAULT_CONFORMANCE);
    return super.connect(url, properties);
  }

  /** Sets a connection property that neither the properties nor the URL name. */
  private static void setUnlessNamed(Properties properties, String url, String name,
      String value) {
    if (properties.getProperty(name) == null && !url.contains(name + "=")) {
      properties.setProperty(name, value);
    }
  }

  @Override public Meta createMeta(AvaticaConnection connection) {
    final CalciteConnectionConfig config = (CalciteConnectionConfig) connection.config();
    connection.properties.put(InternalProperty.NULL_SORTING,
        NullSorting.of(config.defaultNullCollation()));
    return new ShardSetMeta(connection,
        config.metaTableFactory(CalciteMetaTableFactory.class,
            CalciteMetaTableFactoryImpl.INSTANCE),
        new ShardSetColumnFactory(
            config.metaColumnFactory(CalciteMetaColumnFactory.class,
                CalciteMetaColumnFactoryImpl.INSTANCE),
            // The connection is still being constructed: its type factory comes later.
            () -> ((CalciteConnection) connection).getTypeFactory()),
        runtime().execution().scanServices().statements());
  }

  /** ShardSet's name and version, not Calcite's (see {@link ShardSetVersion}). */
  @Override protected DriverVersion createDriverVersion() {
    return ShardSetVersion.driverVersion();
  }

  @Override public CalcitePrepare createPrepare() {
    return new PlanCachingPrepare(planCache,
        runtime().execution().scanServices().statements());
  }

  @Override protected Handler createHandler() {
    return new ClosingHandler(super.createHandler());
  }

  @Override protected String getConnectStringPrefix() {
    return CONNECT_STRING_PREFIX;
  }

  /**
   * Calcite's JDBC objects, whose failures keep their SQLState and reason and whose result
   * sets read {@code java.time} values.
   */
  @Override protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return ShardSetJdbcFactory.class.getName();
  }

  /** Leaves {@code jdbc:shardset:remote:}, which starts with this driver's prefix, to
   * the remote driver ({@link #REMOTE_CONNECT_STRING_PREFIX}). */
  @Override public boolean acceptsURL(String url) throws SQLException {
    return super.acceptsURL(url) && !url.startsWith(REMOTE_CONNECT_STRING_PREFIX);
  }

  /** Calcite's handler, and the closing of statements and scans on close. */
  private static final class ClosingHandler implements Handler {
    private final Handler calcite;

    ClosingHandler(Handler calcite) {
      this.calcite = calcite;
    }

    @Override public void onConnectionInit(AvaticaConnection connection) throws SQLException {
      calcite.onConnectionInit(connection);
      if (connection instanceof CalciteConnection calciteConnection) {
        // What Avatica's protocol cannot ask for, remote clients query.
        SystemTable.register(calciteConnection.getRootSchema());
        StatementTables.register(calciteConnection.getRootSchema(),
            runtime().execution().scanServices().statements());
      }
    }

    @Override public void onConnectionClose(AvaticaConnection connection) {
      try {
        for (AvaticaStatement statement : List.copyOf(connection.statementMap.values())) {
          try {
            statement.close();
          } catch (SQLException | RuntimeException e) {
            LOG.debug("closing a statement of a closing connection failed", e);
          }
        }
      } finally {
        try {
          if (connection instanceof SessionOwner owner) {
            owner.session().close();
          }
          openScans().connectionClosed(connection);
        } finally {
          try {
            releaseSchemas(connection);
          } finally {
            calcite.onConnectionClose(connection);
          }
        }
      }
    }

    /** Lets go of the pools that the connection's ShardSet schemas hold. */
    private static void releaseSchemas(AvaticaConnection connection) {
      try {
        if (connection instanceof CalciteConnection calcite) {
          release(calcite.getRootSchema());
        }
      } catch (RuntimeException e) {
        LOG.debug("releasing the schemas of a closing connection failed", e);
      }
    }

    private static void release(SchemaPlus schema) {
      ShardSchemas.under(schema).forEach(ShardSchema::release);
    }

    @Override public void onStatementExecute(AvaticaStatement statement, ResultSink resultSink) {
      calcite.onStatementExecute(statement, resultSink);
    }

    @Override public void onStatementClose(AvaticaStatement statement) {
      try {
        openScans().statementClosed(statement.connection, statement.handle.id);
      } finally {
        calcite.onStatementClose(statement);
      }
    }
  }
}
