package io.shardset.cli.server;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.guard.ActivitySettings;
import io.shardset.calcite.guard.AuditLog;
import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.plan.SortMemory;
import io.shardset.calcite.prepare.PlanWarmup;
import io.shardset.cli.security.CertificateOrPasswordAuthenticator;
import io.shardset.cli.security.GuessingGuard;
import io.shardset.cli.security.UsersFile;
import io.shardset.cli.security.UsersLoginService;
import io.shardset.cli.server.pg.PgListener;
import io.shardset.cli.server.pg.PgListenerSettings;
import io.shardset.cli.server.pg.PgUsers;
import io.shardset.execution.ShardMetrics;

import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.server.HandlerFactory;
import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.eclipse.jetty.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;

/**
 * An Avatica HTTP server in this process that gives remote JDBC clients (the Avatica remote
 * driver, sqlline, BI tools) connections to one ShardSet model: read-only ones to the users
 * who may not write (see {@link WriteAccess}).
 */
public final class ShardSetServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ShardSetServer.class);
  /** The realm BASIC authentication names. */
  private static final String REALM = "ShardSet";
  /** The model goes in the properties, which a client cannot override (see ShardSetMeta). */
  /** ShardSet's driver: Calcite's, with a plan cache (Avatica prepares on every call). */
  private static final String URL = "jdbc:shardset:";

  private final ServerSettings settings;
  private final InetAddress address;
  /** The server's own connection on the model, which keeps its pools open. */
  private final Connection model;
  private final ShardSetMeta meta;
  private final MetricsEndpoint metrics;
  private final HealthEndpoint health;
  private final HttpServer http;
  private final ServerPlanWarmup warmup;
  /** The PostgreSQL protocol listener, or null when the server speaks only Avatica's. */
  private final @Nullable PgListener pg;

  private ShardSetServer(ServerSettings settings, InetAddress address, Connection model,
      ShardSetMeta meta, MetricsEndpoint metrics, HealthEndpoint health, HttpServer http,
      ServerPlanWarmup warmup, @Nullable PgListener pg) {
    this.warmup = warmup;
    this.pg = pg;
    this.settings = settings;
    this.address = address;
    this.model = model;
    this.meta = meta;
    this.metrics = metrics;
    this.health = health;
    this.http = http;
  }

  /**
   * Checks the settings, opens the model once so that a broken model fails here rather than in
   * the first client, and starts listening.
   *
   * @throws IllegalArgumentException if the settings cannot be served: a missing file, an
   *     unknown address, no authentication on an address other hosts can reach, or a port
   *     in use
   * @throws SQLException if the model cannot be opened
   */
  public static ShardSetServer start(ServerSettings settings) throws SQLException {
    return start(settings, duration -> Thread.sleep(duration.toMillis()));
  }

  /** {@link #start(ServerSettings)}, with what waits out the back-off of password guessing. */
  public static ShardSetServer start(ServerSettings settings, GuessingGuard.Sleeper sleeper)
      throws SQLException {
    Objects.requireNonNull(settings, "settings");
    final InetAddress address = address(settings.bind());
    if (settings.users() == null && !address.isLoopbackAddress()) {
      throw new IllegalArgumentException("refusing to serve on " + settings.bind()
          + " without authentication: only a loopback address may go without --users"
          + " (a realm properties file of 'name: password,role' lines)");
    }
    final TlsSettings tls = settings.security().tls();
    if (tls == null && !address.isLoopbackAddress()) {
      if (!settings.security().allowPlainHttp()) {
        throw new IllegalArgumentException("refusing to serve on " + settings.bind()
            + " over plain HTTP: passwords would cross the network readable; give"
            + " --tls-keystore (or --tls-certificate and --tls-key), or --allow-plain-http"
            + " behind a proxy that does TLS");
      }
      LOG.warn("serving on {} over plain HTTP (--allow-plain-http): passwords and rows cross"
          + " the network readable by anyone on the path", settings.bind());
    }
    if (!Files.isReadable(settings.model())) {
      throw new IllegalArgumentException("cannot read the model file " + settings.model());
    }
    if (settings.users() != null && !Files.isReadable(settings.users())) {
      throw new IllegalArgumentException("cannot read the users file " + settings.users());
    }
    final AuditLog audit = AuditLog.of(settings.security().audit());
    final UsersFile users = settings.users() == null ? null : usersFile(settings.users());
    // One guard for both protocols: guesses through one count against the other.
    final GuessingGuard guard = new GuessingGuard(settings.security().guessing(), sleeper,
        Clock.systemUTC());
    final UsersLoginService login = users == null ? null
        : new UsersLoginService(REALM, users, guard, audit);
    final Properties info = new Properties();
    // In the properties, not the URL: URLs split on ';', which H2 URLs contain.
    info.setProperty("model", settings.model().toAbsolutePath().toString());
    // A server property, which no client overrides (see ClientProperties).
    info.setProperty("fun", settings.functions());
    if (settings.sortMemory() != null) {
      // A server property too: what a session's work above the shards may hold in memory.
      info.setProperty(SortMemory.PROPERTY, settings.sortMemory());
    }
    if (audit.isOn()) {
      // A server property too: the embedded connections write their writes to the trail.
      info.setProperty(AuditLog.PROPERTY, "true");
    }
    if (settings.slowQueryMillis() > 0) {
      info.setProperty(ActivitySettings.SLOW_MILLIS, Long.toString(settings.slowQueryMillis()));
    }
    // Before the first connection registers a meter: the endpoint then publishes them all. The
    // server publishes them there and not over JMX, whose timers lock on every statement.
    final ShardMetrics meters = ShardSetRuntime.get().execution().scanServices().metrics();
    // How the catalog's registry of processes names this one, for a model kept in a catalog.
    ShardSetRuntime.get().liveModels().describeAs("server " + settings.bind() + ":"
        + settings.port());
    meters.stopPublishingOverJmx();
    final MetricsEndpoint metrics = new MetricsEndpoint(meters.registry());
    final List<AutoCloseable> opened = new ArrayList<>(List.of(metrics));
    try {
      // Opening the model once fails a broken one here; the connection then stays open while
      // the server runs, so that the shard pools (and their meters) do not close and open
      // again each time the last client leaves.
      final Connection model = DriverManager.getConnection(URL, info);
      opened.add(0, model);
      model.getMetaData();
      final HealthEndpoint health = new HealthEndpoint(model);
      opened.add(0, health);
      final Caller.Current callers = new Caller.Current();
      final ShardSetMeta meta = new ShardSetMeta(URL, info, settings.idleTimeout(),
          settings.statementTimeout(), settings.spooling(), callers, audit);
      opened.add(0, meta);
      // Avatica's own handler (given no configuration, as with authentication Jetty's
      // security handler in front of it does the checking), told who sends each request.
      final WriteAccessHandler handler = new WriteAccessHandler(new TracelessErrorHandler(
          new HandlerFactory().getHandler(RemoteErrorService.around(new LocalService(meta),
              callers), settings.serialization()), settings.serialization()),
          WriteAccess.of(settings), callers, settings.roleScatter(), settings.operatorRoles(),
          metrics, health);
      final HttpServer.Builder<Server> builder = HttpServer.Builder.<Server>newBuilder()
          .withHandler(handler)
          .withPort(settings.port())
          .withServerCustomizers(List.of(bindTo(settings.bind()), HealthEndpoint::openToAll,
              server -> {
                if (tls != null) {
                  TlsConnector.apply(server, tls);
                }
                if (login != null) {
                  useLogin(server, login);
                }
              }), Server.class);
      if (settings.users() != null) {
        builder.withBasicAuthentication(settings.users().toAbsolutePath().toString(),
            settings.roles().toArray(new String[0]));
      }
      final HttpServer http = builder.build();
      try {
        http.start();
      } catch (RuntimeException e) {
        // Jetty's BindException arrives wrapped, and the half-started server keeps its
        // threads.
        http.stop();
        final Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw new IllegalArgumentException("cannot listen on " + settings.bind() + ":"
            + settings.port() + ": " + cause.getMessage(), e);
      }
      // Once clients may connect: they plan what they send as the warm-up would.
      final PgListener pg;
      try {
        pg = settings.pgPort() == ServerSettings.NO_PG_PORT ? null
            : PgListener.start(pgSettings(settings, users, guard, audit),
                new PgSessions(URL, info, WriteAccess.of(settings), settings.roleScatter(),
                    settings.operatorRoles(), audit));
      } catch (RuntimeException e) {
        http.stop();
        throw e;
      }
      if (pg != null) {
        opened.add(0, pg);
      }
      final ServerPlanWarmup warmup = ServerPlanWarmup.start(settings.planWarmup(),
          ((ShardSetDriver) DriverManager.getDriver(URL)).planCache(), model, URL, info);
      return new ShardSetServer(settings, address, model, meta, metrics, health, http, warmup,
          pg);
    } catch (SQLException | RuntimeException e) {
      closeAll(opened, e);
      throw e;
    }
  }

  /** A users file, whose warnings (passwords not hashed) it logs. */
  private static UsersFile usersFile(Path file) {
    final UsersFile users = UsersFile.read(file);
    for (String warning : users.warnings()) {
      LOG.warn(warning);
    }
    return users;
  }

  /** How the PostgreSQL listener serves: the server's address, users, TLS and limits. */
  private static PgListenerSettings pgSettings(ServerSettings settings,
      @Nullable UsersFile users, GuessingGuard guard, AuditLog audit) {
    final SecureRandom random = new SecureRandom();
    final byte[] mockKey = new byte[32];
    random.nextBytes(mockKey);
    return new PgListenerSettings(settings.bind(), settings.pgPort(),
        pgTls(settings.security().tls()),
        new PgUsers(users, settings.roles(), guard, audit, mockKey, random),
        PgListenerSettings.DEFAULT_MAX_CLIENTS, PgListenerSettings.DEFAULT_MAX_MESSAGE_BYTES,
        settings.spooling().fetchTimeout(), (int) settings.statementTimeout().getSeconds());
  }

  /** What answers a PostgreSQL client's SSLRequest: the server's key and certificate. */
  private static @Nullable SslContext pgTls(@Nullable TlsSettings tls) {
    if (tls == null) {
      return null;
    }
    try {
      final KeyManagerFactory keys =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(tls.keyStore(), tls.keyPassword());
      return SslContextBuilder.forServer(keys).build();
    } catch (GeneralSecurityException | SSLException e) {
      throw new IllegalArgumentException("cannot use the TLS key for PostgreSQL clients: "
          + e.getMessage(), e);
    }
  }

  /**
   * Puts ShardSet's login service and authenticator in the place of the ones Avatica's BASIC
   * authentication made, whose realm file holds clear-text passwords only.
   */
  private static void useLogin(Server server, UsersLoginService login) {
    for (HashLoginService avatica : server.getBeans(HashLoginService.class)) {
      server.removeBean(avatica);
    }
    server.addBean(login);
    final ConstraintSecurityHandler security =
        server.getChildHandlerByClass(ConstraintSecurityHandler.class);
    security.setLoginService(login);
    security.setAuthenticator(new CertificateOrPasswordAuthenticator(login));
  }

  /** Closes what a failed start opened, the last opened first. */
  private static void closeAll(List<AutoCloseable> opened, Exception failure) {
    for (AutoCloseable resource : opened) {
      try {
        resource.close();
      } catch (Exception e) {
        failure.addSuppressed(e);
      }
    }
  }

  private static InetAddress address(String bind) {
    try {
      return InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown bind address: " + bind);
    }
  }

  /** Avatica's builder has no bind address; its one connector gets it before starting. */
  private static ServerCustomizer<Server> bindTo(String host) {
    return server -> {
      for (Connector connector : server.getConnectors()) {
        ((ServerConnector) connector).setHost(host);
      }
    };
  }

  /** The port it listens on, the free one it was given when asked for port 0. */
  public int port() {
    return http.getPort();
  }

  /** The port PostgreSQL clients connect to, or -1 when the server does not listen for them. */
  public int pgPort() {
    return pg == null ? ServerSettings.NO_PG_PORT : pg.port();
  }

  /** The connections of PostgreSQL clients open now (cancel requests included). */
  public int pgConnections() {
    return pg == null ? 0 : pg.connections();
  }

  /** The JDBC URL a client on this host connects with (credentials not included). */
  public String jdbcUrl() {
    final String host = address.isAnyLocalAddress() ? "127.0.0.1"
        : address.getHostAddress().contains(":") ? "[" + address.getHostAddress() + "]"
        : address.getHostAddress();
    return "jdbc:avatica:remote:url=" + (settings.security().tls() != null ? "https" : "http")
        + "://" + host + ":" + port() + ";serialization="
        + settings.serialization().name().toLowerCase(Locale.ROOT)
        + (settings.users() != null ? ";authentication=BASIC" : "");
  }

  /** Waits until the server stops. */
  public void join() throws InterruptedException {
    http.join();
  }

  /** Stops listening and closes the clients' connections; a model's shard pools close with its
   * last connection, so pools that other users of the model in this process hold stay open. */
  @Override public void close() {
    try {
      try {
        if (pg != null) {
          pg.close();
        }
      } finally {
        http.stop();
      }
    } finally {
      final SQLException failure = new SQLException("closing the server failed");
      closeAll(List.of(warmup, meta, health, model, metrics), failure);
      if (failure.getSuppressed().length > 0) {
        throw new IllegalStateException(failure.getSuppressed()[0].getMessage(), failure);
      }
    }
  }

  /** What planning the statements of {@code --plan-warmup}'s file did, once it is done. */
  public CompletableFuture<PlanWarmup.Outcome> planWarmup() {
    return warmup.done();
  }

  /** Stops listening and closes the process's ShardSet runtime (every shard pool, scan and
   * live model): the end of a server process. */
  public void shutdown() {
    try {
      close();
    } finally {
      ShardSetRuntime.get().close();
    }
  }
}
