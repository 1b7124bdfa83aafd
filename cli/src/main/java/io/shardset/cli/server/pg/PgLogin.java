package io.shardset.cli.server.pg;

import io.shardset.cli.security.UsersFile;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The authentication of one PostgreSQL client: SCRAM-SHA-256 against the server's users file
 * (the verifier it keeps beside each password's hash), slowed by the server's guard against
 * guessing and written to its audit trail; or, on a server without users (a loopback address
 * only), none. A user who proves the password but has none of the roles that may connect is
 * refused as the Avatica side refuses them. A refusal says nothing of which part was wrong.
 */
final class PgLogin {
  private static final Logger LOG = LoggerFactory.getLogger(PgLogin.class);
  static final String MECHANISM = "SCRAM-SHA-256";
  /** What a user name may not put into a log line as it is. */
  private static final Pattern UNPRINTABLE = Pattern.compile("[^\\p{Graph} ]");

  /** Where an exchange is. */
  enum Step { CONTINUE, DONE }

  private final PgUsers users;
  private final String user;
  private final String address;
  private final PgOutput out;
  private @Nullable ScramExchange exchange;
  private UsersFile.@Nullable User known;
  private boolean finalSent;

  PgLogin(PgUsers users, String user, String address, PgOutput out) {
    this.users = users;
    this.user = user;
    this.address = address;
    this.out = out;
  }

  /** Starts: asks for SCRAM, or lets the client in on a server without users. */
  Step start() throws InterruptedException {
    if (users.file() == null) {
      return Step.DONE;
    }
    users.guard().awaitTurn(address);
    out.authenticationSasl(MECHANISM);
    out.flush();
    return Step.CONTINUE;
  }

  /** The user the session runs as, once the exchange is done. */
  PgUser authenticated() {
    return known == null ? new PgUser(user, List.of(), false)
        : new PgUser(user, known.roles(), true);
  }

  /**
   * Takes the client's next password message ({@code p}).
   *
   * @throws PgProtocolException refusing the client: a wrong password, an unknown user, a
   *     user without a role that may connect, or a message out of turn
   */
  Step next(PgFrame frame) throws InterruptedException {
    if (frame.type() != 'p') {
      throw new PgProtocolException("expected a password message, got message type "
          + (int) frame.type());
    }
    final PgInput input = frame.input();
    if (exchange == null) {
      final String mechanism = input.readString();
      if (!mechanism.equals(MECHANISM)) {
        throw new PgProtocolException("28000", "SASL authentication mechanism '"
            + printable(mechanism) + "' is not supported: use " + MECHANISM);
      }
      final int length = input.readInt();
      final String first = new String(input.readBytes(Math.max(0, length)),
          StandardCharsets.UTF_8);
      final UsersFile file = users.file();
      final UsersFile.User found = file == null ? null : file.user(user);
      exchange = ScramExchange.start(found == null ? null : found.scram(), user,
          users.mockKey(), users.random());
      try {
        out.authenticationSaslContinue(exchange.serverFirst(first));
      } catch (IllegalArgumentException e) {
        throw new PgProtocolException(e.getMessage());
      }
      out.flush();
      known = found;
      return Step.CONTINUE;
    }
    if (finalSent) {
      throw new PgProtocolException("a password message after authentication");
    }
    final String clientFinal = new String(input.readRest(), StandardCharsets.UTF_8);
    final Optional<String> serverFinal;
    try {
      serverFinal = exchange.serverFinal(clientFinal);
    } catch (IllegalArgumentException e) {
      throw new PgProtocolException(e.getMessage());
    }
    final UsersFile.User found = known;
    if (serverFinal.isEmpty() || found == null) {
      refuse();
    }
    if (found.roles().stream().noneMatch(users.roles()::contains)) {
      refuse();
    }
    users.guard().succeeded(address, user);
    finalSent = true;
    out.authenticationSaslFinal(serverFinal.get());
    return Step.DONE;
  }

  private void refuse() throws InterruptedException {
    final Duration next = users.guard().failed(address, user);
    LOG.warn("PostgreSQL authentication failed for user '{}' from {} ({} failures in a row"
        + " from the address, {} for the user); the address's next attempt waits {} ms",
        printable(user), address, users.guard().failuresFrom(address),
        users.guard().failuresFor(user), next.toMillis());
    users.audit().refused(printable(user), address);
    known = null;
    throw new PgProtocolException("28P01", "password authentication failed for user \""
        + printable(user) + "\"");
  }

  static String printable(String text) {
    return UNPRINTABLE.matcher(text).replaceAll("?");
  }
}
