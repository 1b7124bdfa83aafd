package io.shardset.cli;

import io.shardset.cli.server.ResultSpooling;
import io.shardset.cli.server.RoleScatter;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.cli.server.WriteAccess;

import org.apache.calcite.avatica.remote.Driver;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code shardset server}: serves a model to remote JDBC clients until the process stops. */
@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Serves a ShardSet model over Avatica's HTTP protocol to remote JDBC clients: the"
            + " Avatica remote driver, sqlline, BI tools. Stops on SIGTERM or Ctrl-C.",
        "Clients connect with jdbc:avatica:remote:url=http://HOST:PORT;serialization=protobuf"
            + " (and ;authentication=BASIC;avatica_user=NAME;avatica_password=PASSWORD with"
            + " --users).",
        "With --users only users with the role 'write' may write; with --read-only nobody"
            + " may."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:stopped",
        "1:could not start (model, address, users file)",
        "2:wrong command line"})
public final class ServerCommand implements Callable<Integer> {
  @Option(names = "--model", required = true, paramLabel = "FILE",
      description = "The model file (JSON).")
  private Path model;

  @Option(names = "--port", defaultValue = "8765", paramLabel = "N",
      description = "The port (default: ${DEFAULT-VALUE}); 0 for any free port.")
  private int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
      description = "The address to listen on (default: ${DEFAULT-VALUE}). Any address other"
          + " than a loopback one needs --users.")
  private String bind;

  @Option(names = "--serialization", defaultValue = "PROTOBUF", paramLabel = "FORMAT",
      converter = SerializationConverter.class,
      description = "protobuf or json (default: protobuf); clients must name the same.")
  private Driver.Serialization serialization;

  @Option(names = "--users", paramLabel = "FILE",
      description = "Require HTTP BASIC authentication (or a client certificate, with"
          + " --tls-client-ca) by the users of this file, one 'name: password,role...' line"
          + " each, the password hashed by 'shardset users add' (clear text works, with a"
          + " warning). A user writes (INSERT, UPDATE, DELETE) only with the role '"
          + WriteAccess.WRITE_ROLE + "' and without the role '" + WriteAccess.READ_ROLE
          + "'; every other user only queries. Without --users (loopback only) every client"
          + " may write.")
  private Path users;

  @Option(names = "--role", paramLabel = "ROLE", defaultValue = "users", split = ",",
      description = "The roles of which a user needs one to connect"
          + " (default: ${DEFAULT-VALUE}).")
  private List<String> roles = new ArrayList<>();

  @Option(names = "--read-only",
      description = "Nobody writes, whatever their roles: every connection is read-only.")
  private boolean readOnly;

  @Option(names = "--idle-timeout", defaultValue = "300", paramLabel = "SECONDS",
      description = "Close a client's connection or statement unused for this long, releasing"
          + " its shard connections (default: ${DEFAULT-VALUE}).")
  private long idleTimeoutSeconds;

  @Option(names = "--fun", defaultValue = ServerSettings.DEFAULT_FUNCTIONS,
      paramLabel = "LIBRARIES",
      description = "The SQL function libraries of every session, as Calcite's 'fun'"
          + " property takes them (default: ${DEFAULT-VALUE}: CONCAT, LEFT, RIGHT, SUBSTR,"
          + " LENGTH, ILIKE... as PostgreSQL means them); clients cannot choose their own.")
  private String functions;
  @Option(names = "--statement-timeout", defaultValue = "0", paramLabel = "SECONDS",
      description = "Stop any statement that runs longer, its shard statements too, as"
          + " setQueryTimeout would; Avatica clients cannot send their own (default: none).")
  private int statementTimeoutSeconds;

  @Option(names = "--role-scatter", paramLabel = "ROLE=MODE[:MAX_SHARDS]",
      converter = RoleScatterConverter.class,
      description = "The scatter limit of the users with ROLE (allow, warn or deny, and the"
          + " most shards a statement may reach), replacing the model's; repeat for more"
          + " roles, the first one a user has applying. Needs --users.")
  private List<RoleScatter> roleScatter = new ArrayList<>();

  @Option(names = "--result-memory", defaultValue = "4", paramLabel = "MIB",
      description = "Rows of one result read ahead of its client kept in memory, so that the"
          + " shards are read at their speed, not the client's, and release their connections"
          + " (default: ${DEFAULT-VALUE} MiB per statement); more go to a temporary file.")
  private long resultMemoryMib;

  @Option(names = "--result-memory-total", defaultValue = "256", paramLabel = "MIB",
      description = "Rows of all results read ahead kept in memory (default: ${DEFAULT-VALUE}"
          + " MiB); more go to temporary files.")
  private long resultMemoryTotalMib;

  @Option(names = "--result-spool-limit", defaultValue = "1024", paramLabel = "MIB",
      description = "Read at most this much of one result ahead of its client; the rest is"
          + " read from the shards as the client fetches it, holding their connections"
          + " (default: ${DEFAULT-VALUE} MiB; 0 streams every result at the client's pace).")
  private long resultSpoolLimitMib;

  @Option(names = "--result-spool-dir", paramLabel = "DIR",
      description = "Where results read ahead go beyond memory (default: the system's"
          + " temporary folder).")
  private Path resultSpoolDir;

  @Option(names = "--sort-memory", paramLabel = "SIZE",
      description = "What each sort, grouping or hash join of a session above the shards holds"
          + " in memory before it spills to temporary files, such as 256MB or 1GB (default:"
          + " 64MB, or an eighth of the heap when that is less).")
  private String sortMemory;

  @Option(names = "--pg-port", paramLabel = "N",
      description = "Also speak PostgreSQL's wire protocol on this port (psql, pgbench, every"
          + " language's PostgreSQL driver, BI tools), with the same users, roles and limits;"
          + " 0 for any free port (default: off).")
  private Integer pgPort;

  @Option(names = "--plan-warmup", paramLabel = "FILE",
      description = "Keep the statements whose plans the server holds in this file when it"
          + " stops, and plan them again in the background when it starts, so that clients"
          + " after a restart find them planned (default: none).")
  private Path planWarmup;

  @Option(names = "--fetch-timeout", defaultValue = "30", paramLabel = "SECONDS",
      description = "Close a statement whose result still holds shard connections (streamed"
          + " past --result-spool-limit) when its client has fetched nothing for this long,"
          + " releasing them (default: ${DEFAULT-VALUE}).")
  private long fetchTimeoutSeconds;

  @Option(names = "--slow-query-ms", defaultValue = "0", paramLabel = "MILLISECONDS",
      description = "Log every statement that takes this long or longer, once, with its"
          + " shards' times, rows and SQL, literals masked, on the logger io.shardset.slow"
          + " (default: none).")
  private long slowQueryMillis;

  @Option(names = "--operator-role", paramLabel = "ROLE", split = ",",
      description = "The roles whose users see every user's running statements in"
          + " SHARDSET.STATEMENTS and may cancel them with SHARDSET.CANCEL; other users see"
          + " their own. Needs --users.")
  private List<String> operatorRoles = new ArrayList<>();

  @Option(names = "--tls-keystore", paramLabel = "FILE",
      description = "Serve HTTPS with the key and certificate chain of this PKCS#12 file; its"
          + " password comes from --tls-password-file or the environment variable "
          + TlsOptions.PASSWORD_VARIABLE + ".")
  private Path tlsKeystore;

  @Option(names = "--tls-password-file", paramLabel = "FILE",
      description = "The file whose first line is the --tls-keystore password.")
  private Path tlsPasswordFile;

  @Option(names = "--tls-certificate", paramLabel = "FILE",
      description = "Serve HTTPS with this PEM certificate chain and the key of --tls-key.")
  private Path tlsCertificate;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "The unencrypted PKCS#8 PEM key of --tls-certificate.")
  private Path tlsKey;

  @Option(names = "--tls-client-ca", paramLabel = "FILE",
      description = "Require every client to show a certificate signed by one of the"
          + " authorities in this PEM file (mutual TLS); a certificate whose subject's CN"
          + " names a user of --users signs that user in without a password.")
  private Path tlsClientCa;

  @Option(names = "--audit",
      description = "Write the audit trail on the logger io.shardset.audit: sessions opened and"
          + " closed, authentications refused, write statements (user, address, tables,"
          + " shards, rows, outcome; literals masked).")
  private boolean audit;

  @Option(names = "--allow-plain-http",
      description = "Serve a non-loopback --bind over plain HTTP, for a proxy in front that"
          + " does TLS; passwords cross the network readable (a warning each start).")
  private boolean allowPlainHttp;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public Integer call() throws InterruptedException {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final ShardSetServer server;
    try {
      server = ShardSetServer.start(settings());
    } catch (IllegalArgumentException | SQLException e) {
      err.println("server failed to start: " + e.getMessage());
      err.flush();
      return 1;
    }
    Runtime.getRuntime().addShutdownHook(
        new Thread(server::shutdown, "shardset-server-shutdown"));
    out.println("Serving " + model + " at " + server.jdbcUrl()
        + (server.pgPort() > 0 ? " and to PostgreSQL clients on port " + server.pgPort() : "")
        + (readOnly ? " (read-only)" : ""));
    out.flush();
    server.join();
    return 0;
  }

  /** The settings the options give; package-visible for the options' tests. */
  ServerSettings settings() {
    final ServerSettings plain = ServerSettings.loopback(model, port, serialization)
        .withBind(bind).withIdleTimeout(Duration.ofSeconds(idleTimeoutSeconds))
        .withReadOnly(readOnly).withFunctions(functions)
        .withStatementTimeout(Duration.ofSeconds(statementTimeoutSeconds));
    final ServerSettings settings = (users == null ? plain : plain.withUsers(users, roles))
        .withRoleScatter(roleScatter)
        .withSlowQueryMillis(slowQueryMillis).withOperatorRoles(operatorRoles)
        .withSpooling(new ResultSpooling(resultMemoryMib << 20, resultMemoryTotalMib << 20,
            resultSpoolLimitMib << 20, resultSpoolDir != null ? resultSpoolDir
                : ResultSpooling.DEFAULT.directory(), Duration.ofSeconds(fetchTimeoutSeconds)));
    final ServerSettings secured = settings.withSecurity(new TlsOptions(tlsKeystore,
        tlsPasswordFile, tlsCertificate, tlsKey, tlsClientCa).security()
        .withPlainHttpAllowed(allowPlainHttp).withAudit(audit));
    final ServerSettings sorted = sortMemory == null ? secured
        : secured.withSortMemory(sortMemory);
    final ServerSettings warmed = planWarmup == null ? sorted : sorted.withPlanWarmup(planWarmup);
    return pgPort == null ? warmed : warmed.withPgPort(pgPort);
  }

  /** Reads a role's scatter limit. */
  static final class RoleScatterConverter implements CommandLine.ITypeConverter<RoleScatter> {
    @Override public RoleScatter convert(String value) {
      try {
        return RoleScatter.parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** Reads the serialization in any case. */
  static final class SerializationConverter
      implements CommandLine.ITypeConverter<Driver.Serialization> {
    @Override public Driver.Serialization convert(String value) {
      for (Driver.Serialization s : Driver.Serialization.values()) {
        if (s.name().equalsIgnoreCase(value)) {
          return s;
        }
      }
      throw new CommandLine.TypeConversionException(
          "serialization must be protobuf or json: '" + value + "'");
    }
  }
}
