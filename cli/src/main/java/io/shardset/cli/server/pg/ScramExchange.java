package io.shardset.cli.server.pg;

import io.shardset.cli.security.ScramSecret;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The server's side of one SCRAM-SHA-256 authentication (RFC 5802, RFC 7677), as PostgreSQL
 * runs it: the client's first message, the server's nonce, salt and iterations, the client's
 * proof, and the server's signature. As PostgreSQL does, the user is the startup message's,
 * not the SCRAM message's (clients send an empty one), and channel binding
 * (SCRAM-SHA-256-PLUS) is not offered. A user without a verifier (unknown, or stored only as a
 * hash) gets a made-up one, the same for the same name, so that the exchange runs to its end
 * and fails there as a wrong password does: the answers do not tell which users exist.
 */
public final class ScramExchange {
  private static final int NONCE_BYTES = 18;

  private final ScramSecret secret;
  private final boolean real;
  private final String serverNonce;
  private @Nullable String clientFirstBare;
  private @Nullable String serverFirst;

  ScramExchange(ScramSecret secret, boolean real, String serverNonce) {
    this.secret = secret;
    this.real = real;
    this.serverNonce = serverNonce;
  }

  /**
   * Starts an exchange for a user.
   *
   * @param secret the user's verifier, or null for none (unknown user, or a hash alone)
   * @param user the startup message's user name
   * @param mockKey a key of the server's, made at start, from which a made-up verifier's salt
   *     is derived
   */
  public static ScramExchange start(@Nullable ScramSecret secret, String user, byte[] mockKey,
      SecureRandom random) {
    final byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    final String serverNonce = Base64.getEncoder().encodeToString(nonce);
    if (secret != null) {
      return new ScramExchange(secret, true, serverNonce);
    }
    return new ScramExchange(ScramSecret.madeUp(mockKey, user, random), false, serverNonce);
  }

  /**
   * Reads the client's first message ({@code n,,n=,r=NONCE}) and returns the server's
   * ({@code r=NONCE,s=SALT,i=ITERATIONS}).
   *
   * @throws IllegalArgumentException if the message is not one, or asks for channel binding
   */
  public String serverFirst(String clientFirst) {
    final String bare;
    if (clientFirst.startsWith("n,") || clientFirst.startsWith("y,")) {
      final int authzidEnd = clientFirst.indexOf(',', 2);
      if (authzidEnd < 0) {
        throw malformed("client-first-message");
      }
      bare = clientFirst.substring(authzidEnd + 1);
    } else if (clientFirst.startsWith("p=")) {
      throw new IllegalArgumentException("SCRAM channel binding is not supported: use"
          + " SCRAM-SHA-256, not SCRAM-SHA-256-PLUS");
    } else {
      throw malformed("client-first-message");
    }
    final String[] parts = bare.split(",", -1);
    if (parts.length < 2 || !parts[0].startsWith("n=") || !parts[1].startsWith("r=")
        || parts[1].length() == 2) {
      throw malformed("client-first-message");
    }
    clientFirstBare = bare;
    final String first = "r=" + parts[1].substring(2) + serverNonce + ",s="
        + Base64.getEncoder().encodeToString(secret.salt()) + ",i=" + secret.iterations();
    serverFirst = first;
    return first;
  }

  /**
   * Reads the client's final message ({@code c=biws,r=NONCE,p=PROOF}) and returns the server's
   * ({@code v=SIGNATURE}) if the proof shows the password, else empty.
   *
   * @throws IllegalArgumentException if the message is not one, or comes out of turn
   */
  public Optional<String> serverFinal(String clientFinal) {
    final String first = serverFirst;
    final String bare = clientFirstBare;
    if (first == null || bare == null) {
      throw malformed("exchange order");
    }
    final int proofAt = clientFinal.lastIndexOf(",p=");
    if (proofAt < 0 || !clientFinal.startsWith("c=")) {
      throw malformed("client-final-message");
    }
    final String withoutProof = clientFinal.substring(0, proofAt);
    final String[] parts = withoutProof.split(",", -1);
    final String nonce = first.substring(2, first.indexOf(','));
    if (parts.length < 2 || !parts[1].equals("r=" + nonce)) {
      throw malformed("client-final-message nonce");
    }
    if (!parts[0].equals("c=biws") && !parts[0].equals("c=eSws")) {
      throw malformed("client-final-message channel binding");
    }
    final byte[] proof;
    try {
      proof = Base64.getDecoder().decode(clientFinal.substring(proofAt + 3));
    } catch (IllegalArgumentException e) {
      throw malformed("client-final-message proof");
    }
    final String authMessage = bare + "," + first + "," + withoutProof;
    if (!secret.verifies(proof, authMessage) || !real) {
      return Optional.empty();
    }
    return Optional.of("v=" + Base64.getEncoder().encodeToString(
        secret.serverSignature(authMessage)));
  }

  private static IllegalArgumentException malformed(String what) {
    return new IllegalArgumentException("malformed SCRAM " + what);
  }
}
