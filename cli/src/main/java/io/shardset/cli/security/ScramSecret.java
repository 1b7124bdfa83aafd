package io.shardset.cli.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A password stored as a SCRAM-SHA-256 verifier (RFC 5802, RFC 7677), in PostgreSQL's form
 * {@code SCRAM-SHA-256$ITERATIONS:SALT$STORED_KEY:SERVER_KEY} (Base64): what a server keeps to
 * check a client's proof of the password without the password, and to prove to the client that
 * it knows the verifier. The PostgreSQL protocol's clients authenticate with it; a PBKDF2-SHA512
 * hash cannot serve, since SCRAM's keys are derived with HMAC-SHA-256.
 *
 * <p>The password is normalized to Unicode NFKC before it is derived, as SASLprep does for the
 * passwords it accepts (PostgreSQL does the same, and uses the raw bytes where SASLprep refuses
 * a password).
 */
public final class ScramSecret {
  /** The prefix that marks a verifier in a users file. */
  public static final String PREFIX = "SCRAM-SHA-256$";
  /** The iterations of a new verifier: PostgreSQL's default. */
  public static final int ITERATIONS = 4096;

  private static final int SALT_BYTES = 16;
  private static final int KEY_BITS = 256;
  private static final String B64 = "[A-Za-z0-9+/]+={0,2}";
  private static final Pattern FORM = Pattern.compile("SCRAM-SHA-256\\$([1-9][0-9]{0,8}):("
      + B64 + ")\\$(" + B64 + "):(" + B64 + ")");

  private final int iterations;
  private final byte[] salt;
  private final byte[] storedKey;
  private final byte[] serverKey;

  private ScramSecret(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) {
    this.iterations = iterations;
    this.salt = salt;
    this.storedKey = storedKey;
    this.serverKey = serverKey;
  }

  /** The verifier of a new password, with a new random salt and {@value #ITERATIONS} rounds. */
  public static ScramSecret of(char[] password) {
    final byte[] salt = new byte[SALT_BYTES];
    new SecureRandom().nextBytes(salt);
    return of(password, salt, ITERATIONS);
  }

  /** The verifier of a password with this salt and number of iterations. */
  public static ScramSecret of(char[] password, byte[] salt, int iterations) {
    final byte[] salted = saltedPassword(password, salt, iterations);
    final byte[] clientKey = hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
    return new ScramSecret(iterations, salt.clone(), sha256(clientKey),
        hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII)));
  }

  /**
   * A made-up verifier for a user that has none (unknown, or stored as a hash alone): its salt
   * derived from a key of the server's and the user's name, so that it is the same for the
   * name each time, and a random password, so that no proof checks out. An exchange with it
   * looks and costs the same as one with a real verifier.
   */
  public static ScramSecret madeUp(byte[] serverKey, String user, SecureRandom random) {
    final byte[] salt = Arrays.copyOf(hmac(serverKey, user.getBytes(StandardCharsets.UTF_8)),
        SALT_BYTES);
    final byte[] password = new byte[24];
    random.nextBytes(password);
    return of(Base64.getEncoder().encodeToString(password).toCharArray(), salt, ITERATIONS);
  }

  /**
   * A stored verifier.
   *
   * @throws IllegalArgumentException if it is not of the form, without repeating it
   */
  public static ScramSecret parse(String stored) {
    final Matcher m = FORM.matcher(stored);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a " + PREFIX + "ITERATIONS:SALT$STORED_KEY:"
          + "SERVER_KEY verifier");
    }
    final Base64.Decoder base64 = Base64.getDecoder();
    final byte[] storedKey = base64.decode(m.group(3));
    final byte[] serverKey = base64.decode(m.group(4));
    if (storedKey.length != KEY_BITS / 8 || serverKey.length != KEY_BITS / 8) {
      throw new IllegalArgumentException("a " + PREFIX + " verifier whose keys are not 32"
          + " bytes each");
    }
    return new ScramSecret(Integer.parseInt(m.group(1)), base64.decode(m.group(2)),
        storedKey, serverKey);
  }

  /** The salt, which the server sends the client. */
  public byte[] salt() {
    return salt.clone();
  }

  /** The iterations, which the server sends the client. */
  public int iterations() {
    return iterations;
  }

  /**
   * Whether a client's proof shows that it knows the password: the proof XOR the client
   * signature of the exchange is the client key, whose hash is the stored key (compared in
   * constant time).
   *
   * @param authMessage the exchange's messages, as RFC 5802 joins them
   */
  public boolean verifies(byte[] clientProof, String authMessage) {
    final byte[] signature = hmac(storedKey, authMessage.getBytes(StandardCharsets.UTF_8));
    if (clientProof.length != signature.length) {
      return false;
    }
    final byte[] clientKey = new byte[signature.length];
    for (int i = 0; i < clientKey.length; i++) {
      clientKey[i] = (byte) (clientProof[i] ^ signature[i]);
    }
    return MessageDigest.isEqual(storedKey, sha256(clientKey));
  }

  /** The server's signature of the exchange: the client's proof that the server knows us. */
  public byte[] serverSignature(String authMessage) {
    return hmac(serverKey, authMessage.getBytes(StandardCharsets.UTF_8));
  }

  /** The stored form. */
  public String stored() {
    final Base64.Encoder base64 = Base64.getEncoder();
    return PREFIX + iterations + ":" + base64.encodeToString(salt) + "$"
        + base64.encodeToString(storedKey) + ":" + base64.encodeToString(serverKey);
  }

  /** Names the form only: the keys stay out of logs too. */
  @Override public String toString() {
    return "ScramSecret[" + PREFIX + iterations + "]";
  }

  private static byte[] saltedPassword(char[] password, byte[] salt, int iterations) {
    final char[] normalized = Normalizer.normalize(new String(password),
        Normalizer.Form.NFKC).toCharArray();
    final PBEKeySpec spec = new PBEKeySpec(normalized, salt, iterations, KEY_BITS);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec)
          .getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no PBKDF2WithHmacSHA256", e);
    } finally {
      spec.clearPassword();
      Arrays.fill(normalized, '\0');
    }
  }

  private static byte[] hmac(byte[] key, byte[] message) {
    try {
      final Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(message);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HmacSHA256", e);
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
