package io.shardset.cli.server;

import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.plan.SortMemory;

import org.apache.calcite.avatica.remote.Driver;
import org.apache.calcite.sql.fun.SqlLibrary;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How a {@link ShardSetServer} serves a model: the model file, the address and port it listens
 * on, the wire serialization, the realm file and roles of its users when it authenticates, and
 * whether anyone may write (see {@link WriteAccess}).
 *
 * @param model the model file
 * @param bind the host name or address to listen on
 * @param port the port, 0 for any free one
 * @param serialization what clients must name in their {@code serialization} property
 * @param users a Jetty realm properties file ({@code name: password,role...}), or null for no
 *     authentication, which only a loopback {@code bind} address allows
 * @param roles the roles of which a user needs one
 * @param idleTimeout how long a remote connection, or a statement, may go unused before the
 *     server closes it and releases its shard connections: a client that vanished (crashed,
 *     cut off) never says goodbye
 * @param readOnly whether nobody may write, whatever their roles
 * @param functions the function libraries of every remote session, as Calcite's {@code fun}
 *     connection property takes them ({@code standard,postgresql}); a client cannot choose
 *     its own (see {@link ClientProperties})
 * @param statementTimeout how long any remote statement may run, in whole seconds, as if its
 *     client had called {@code setQueryTimeout} (Avatica's protocol does not carry a client's
 *     own); {@link Duration#ZERO} for no limit
 * @param roleScatter the scatter limits of the users with a role, the first one whose role a
 *     user has applying (see {@link RoleScatter})
 * @param slowQueryMillis statements that take at least this long are logged (see
 *     {@link io.shardset.calcite.guard.SlowStatementLog}), 0 for none
 * @param operatorRoles the roles whose users see every user's running statements in
 *     {@code SHARDSET.STATEMENTS} and may cancel them; the others see their own
 * @param spooling how results are read ahead of their clients, so that a slow or vanished
 *     client holds no shard connection (see {@link ResultSpooling})
 * @param sortMemory what a remote session's sort, grouping or hash join above the shards
 *     holds before it spills to disk, as the {@code sortMemory} connection property takes it
 *     ({@code 256MB}); null for ShardSet's default
 * @param security TLS, and whether plain HTTP may serve other hosts (see
 *     {@link ServerSecurity})
 * @param planWarmup the file of the statements whose plans the server held when it stopped,
 *     which it plans again in the background when it starts; null for none
 * @param pgPort the port of the PostgreSQL protocol listener ({@code --pg-port}), 0 for any
 *     free one, {@link #NO_PG_PORT} for none
 */
public record ServerSettings(Path model, String bind, int port,
    Driver.Serialization serialization, @Nullable Path users, List<String> roles,
    Duration idleTimeout, boolean readOnly, String functions,
    Duration statementTimeout, List<RoleScatter> roleScatter, long slowQueryMillis,
    List<String> operatorRoles, ResultSpooling spooling, @Nullable String sortMemory,
    ServerSecurity security, @Nullable Path planWarmup, int pgPort) {
  /** The port Avatica servers listen on by default. */
  public static final int DEFAULT_PORT = 8765;
  /** {@link #pgPort} of a server that does not speak PostgreSQL's protocol. */
  public static final int NO_PG_PORT = -1;
  /** {@link #idleTimeout} unless set otherwise. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

  /** {@link #functions} unless set otherwise: those of embedded connections. */
  public static final String DEFAULT_FUNCTIONS = ShardSetDriver.DEFAULT_FUNCTIONS;

  public ServerSettings {
    Objects.requireNonNull(model, "model");
    checkLibraries(Objects.requireNonNull(functions, "functions"));
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(serialization, "serialization");
    roles = List.copyOf(roles);
    roleScatter = List.copyOf(roleScatter);
    operatorRoles = List.copyOf(operatorRoles);
    Objects.requireNonNull(spooling, "spooling");
    Objects.requireNonNull(security, "security");
    if (sortMemory != null) {
      SortMemory.parse(sortMemory); // refused at start, not in every session
    }
    if (slowQueryMillis < 0) {
      throw new IllegalArgumentException("slow-query threshold must be 0 (none) or more: "
          + slowQueryMillis);
    }
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    if (idleTimeout.toMillis() < 1) {
      throw new IllegalArgumentException("idle timeout must be positive: " + idleTimeout);
    }
    Objects.requireNonNull(statementTimeout, "statementTimeout");
    if (statementTimeout.isNegative() || statementTimeout.toNanos() % 1_000_000_000L != 0
        || statementTimeout.getSeconds() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("statement timeout must be whole seconds, 0 for"
          + " none: " + statementTimeout);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535: " + port);
    }
    if (pgPort < NO_PG_PORT || pgPort > 65535) {
      throw new IllegalArgumentException("PostgreSQL port must be between 0 and 65535: "
          + pgPort);
    }
    if (users != null && roles.isEmpty()) {
      throw new IllegalArgumentException("authentication needs at least one role");
    }
    if (users == null && !operatorRoles.isEmpty()) {
      throw new IllegalArgumentException("operator roles need --users: without"
          + " authentication every client sees and may cancel every statement");
    }
    if (users == null && !roleScatter.isEmpty()) {
      throw new IllegalArgumentException("scatter limits by role need --users: without"
          + " authentication no user has a role");
    }
  }

  /** Fails at start, not in every session, on a library Calcite does not know. */
  private static void checkLibraries(String functions) {
    try {
      SqlLibrary.parse(functions);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + " in the function libraries '"
          + functions + "'; Calcite knows " + Arrays.stream(SqlLibrary.values())
          .map(library -> library.fun).collect(Collectors.joining(", ")), e);
    }
  }

  /** Settings for a model on the loopback address without authentication. */
  public static ServerSettings loopback(Path model, int port,
      Driver.Serialization serialization) {
    return new ServerSettings(model, "127.0.0.1", port, serialization, null, List.of(),
        DEFAULT_IDLE_TIMEOUT, false, DEFAULT_FUNCTIONS, Duration.ZERO, List.of(), 0, List.of(),
        ResultSpooling.DEFAULT, null, ServerSecurity.PLAIN, null, NO_PG_PORT);
  }

  /** The same settings with authentication by the users of a realm file. */
  public ServerSettings withUsers(Path realm, List<String> userRoles) {
    return new ServerSettings(model, bind, port, serialization, realm, userRoles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter,
        slowQueryMillis, operatorRoles, spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings on another address. */
  public ServerSettings withBind(String address) {
    return new ServerSettings(model, address, port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter,
        slowQueryMillis, operatorRoles, spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings with another idle timeout. */
  public ServerSettings withIdleTimeout(Duration timeout) {
    return new ServerSettings(model, bind, port, serialization, users, roles, timeout,
        readOnly, functions, statementTimeout, roleScatter,
        slowQueryMillis, operatorRoles, spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings where nobody writes ({@code true}) or {@link WriteAccess} decides. */
  public ServerSettings withReadOnly(boolean nobodyWrites) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        nobodyWrites, functions, statementTimeout, roleScatter,
        slowQueryMillis, operatorRoles, spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings with other function libraries for remote sessions. */
  public ServerSettings withFunctions(String libraries) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, libraries, statementTimeout, roleScatter,
        slowQueryMillis, operatorRoles, spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings with scatter limits by role. */
  public ServerSettings withRoleScatter(List<RoleScatter> limits) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, limits, slowQueryMillis, operatorRoles,
        spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings where every statement may run {@code timeout}, zero for no limit. */
  public ServerSettings withStatementTimeout(Duration timeout) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, functions, timeout, roleScatter, slowQueryMillis, operatorRoles,
        spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings where statements that take {@code millis} or more are logged, 0 for
   * none. */
  public ServerSettings withSlowQueryMillis(long millis) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter, millis, operatorRoles,
        spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings with other result spooling. */
  public ServerSettings withSpooling(ResultSpooling other) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter, slowQueryMillis, operatorRoles,
        other, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings where remote sessions sort within {@code size} ({@code 256MB}). */
  public ServerSettings withSortMemory(String size) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter, slowQueryMillis, operatorRoles,
        spooling, size, security, planWarmup, pgPort);
  }

  /** The same settings with other security (TLS). */
  public ServerSettings withSecurity(ServerSecurity other) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter, slowQueryMillis, operatorRoles,
        spooling, sortMemory, other, planWarmup, pgPort);
  }

  /** The same settings where the users with one of {@code roles} see every user's running
   * statements and may cancel them. */
  public ServerSettings withOperatorRoles(List<String> roles) {
    return new ServerSettings(model, bind, port, serialization, users, this.roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter, slowQueryMillis, roles,
        spooling, sortMemory, security, planWarmup, pgPort);
  }

  /** The same settings where the server plans, when it starts, the statements whose plans it
   * held when it last stopped, kept in {@code file}. */
  public ServerSettings withPlanWarmup(Path file) {
    return new ServerSettings(model, bind, port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter, slowQueryMillis, operatorRoles,
        spooling, sortMemory, security, file, pgPort);
  }

  /** The same settings with a PostgreSQL protocol listener on {@code port} (0 for any free
   * one), or none ({@link #NO_PG_PORT}). */
  public ServerSettings withPgPort(int port) {
    return new ServerSettings(model, bind, this.port, serialization, users, roles, idleTimeout,
        readOnly, functions, statementTimeout, roleScatter, slowQueryMillis, operatorRoles,
        spooling, sortMemory, security, planWarmup, port);
  }
}
