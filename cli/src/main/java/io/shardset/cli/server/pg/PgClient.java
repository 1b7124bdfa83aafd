package io.shardset.cli.server.pg;

import io.netty.channel.Channel;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

/**
 * One PostgreSQL client from its startup message on, on the thread that serves it:
 * authentication, the opening of its session, then each message; and the session's close
 * when the client goes. A protocol violation, a refused login or a failure outside a
 * statement ends the connection with an ErrorResponse of severity FATAL.
 */
final class PgClient {
  private static final Logger LOG = LoggerFactory.getLogger(PgClient.class);

  private final Channel channel;
  private final String address;
  private final PgListenerSettings settings;
  private final PgSessionOpener opener;
  private final PgBackends backends;
  private final PgOutput out;
  private final PgInbox inbox;
  private final PgSessionSchemas schemas;
  private final int processId;
  private final String name;
  private @Nullable PgLogin login;
  private @Nullable PgSettings sessionSettings;
  private @Nullable PgUser user;
  private @Nullable PgSession session;
  private boolean ended;

  PgClient(Channel channel, String address, PgListenerSettings settings,
      PgSessionOpener opener, PgBackends backends, PgInbox inbox, PgSessionSchemas schemas) {
    this.inbox = inbox;
    this.schemas = schemas;
    this.channel = channel;
    this.address = address;
    this.settings = settings;
    this.opener = opener;
    this.backends = backends;
    this.out = new PgOutput(channel, settings.writeTimeout());
    this.processId = backends.nextProcessId();
    this.name = "pg-" + processId;
  }

  /** The name of the client's session and thread. */
  String name() {
    return "shardset-" + name;
  }

  /**
   * Serves the client on the calling thread: authentication, then each message as it comes,
   * until the client ends the session or goes.
   */
  void serve(Map<String, String> parameters) {
    startup(parameters);
    try {
      PgFrame frame;
      while (!ended && (frame = inbox.take()) != null) {
        message(frame);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    end("connection lost");
  }

  /** Takes the startup message's parameters and starts authentication. */
  private void startup(Map<String, String> parameters) {
    run(() -> {
      final String userName = parameters.get("user");
      final PgSettings initial = new PgSettings(userName);
      initial.startup(parameters);
      sessionSettings = initial;
      final PgLogin started = new PgLogin(settings.users(), userName, address, out);
      login = started;
      if (started.start() == PgLogin.Step.DONE) {
        open(started);
      }
    });
  }

  /** Takes a message after the startup message. */
  private void message(PgFrame frame) {
    run(() -> {
      final PgSession open = session;
      if (open != null) {
        if (!open.handle(frame)) {
          end("closed by the client");
          channel.close();
        }
        return;
      }
      final PgLogin started = login;
      if (started == null) {
        throw new PgProtocolException("a message before the startup message");
      }
      if (started.next(frame) == PgLogin.Step.DONE) {
        open(started);
      }
    });
  }

  /** Cancels what the session runs: its client went. */
  void cancelRunning() {
    final PgSession open = session;
    if (open != null) {
      open.cancel();
    }
  }

  private void open(PgLogin started) throws SQLException {
    final PgUser authenticated = started.authenticated();
    user = authenticated;
    final Connection connection = opener.open(name, authenticated, address, protocolProperties());
    try {
      schemas.install(connection);
      final PgSession opened = new PgSession(connection, out, inbox, sessionSettings,
          settings.statementTimeoutSeconds(), processId);
      session = opened;
      final int secret = backends.register(processId, opened);
      out.authenticationOk();
      for (Map.Entry<String, String> reported : sessionSettings.reported().entrySet()) {
        out.parameterStatus(reported.getKey(), reported.getValue());
      }
      out.backendKeyData(processId, secret);
      out.readyForQuery(opened.status());
      out.flush();
    } catch (SQLException | RuntimeException e) {
      if (session == null) {
        connection.close();
      }
      throw e;
    }
  }

  /**
   * What a PostgreSQL session's connection parses and names as PostgreSQL does: Calcite's
   * Babel parser (for {@code ::} casts and {@code ~} matches), unquoted names in lower case,
   * found without regard to case, so that {@code orders} finds the model's {@code ORDERS},
   * and PostgreSQL's typing of strings and timestamps ({@link PgTypeSystem}).
   */
  static Properties protocolProperties() {
    final Properties properties = new Properties();
    properties.setProperty("parserFactory",
        "org.apache.calcite.sql.parser.babel.SqlBabelParserImpl#FACTORY");
    properties.setProperty("unquotedCasing", "TO_LOWER");
    properties.setProperty("caseSensitive", "false");
    properties.setProperty("typeSystem", PgTypeSystem.class.getName() + "#INSTANCE");
    return properties;
  }

  private void end(String how) {
    if (ended) {
      return;
    }
    ended = true;
    final PgSession open = session;
    session = null;
    if (open == null) {
      return;
    }
    backends.remove(processId);
    try {
      open.close();
    } catch (SQLException | RuntimeException e) {
      LOG.warn("closing PostgreSQL session {} failed", name, e);
    }
    final PgUser who = user;
    if (who != null) {
      opener.closed(name, who, address, how);
    }
  }

  /** Work on the client's thread that may end its connection. */
  private interface Work {
    void run() throws Exception;
  }

  private void run(Work work) {
    if (ended) {
      return;
    }
    try {
      work.run();
    } catch (PgOutput.ClientGoneException e) {
      LOG.debug("PostgreSQL client {} went: {}", name, e.getMessage());
      end("connection lost");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      end("server stopping");
      channel.close();
    } catch (Exception e) {
      final PgError error = PgError.of(e);
      if (!(e instanceof PgProtocolException)) {
        LOG.warn("PostgreSQL client {} from {} failed: {}", name, address, error.message(), e);
      }
      out.report('E', "FATAL", error.sqlState(), error.message(), null);
      out.flushAndClose();
      end("failed: " + error.sqlState());
    }
  }
}
