package io.shardset.cli.security;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A password stored as a PBKDF2 hash: {@code PBKDF2-SHA512:ITERATIONS:SALT:HASH}, salt and
 * hash in Base64, the form a users file holds and {@code shardset users add} writes. The
 * JDK computes it (PBKDF2WithHmacSHA512, 210,000 iterations and a 16-byte random salt by
 * default, as OWASP advises for it); checking a password takes that many iterations, which is
 * what makes guessing slow.
 */
public final class PasswordHash {
  /** The prefix that marks a hashed password in a users file. */
  public static final String PREFIX = "PBKDF2-SHA512:";
  /** The iterations of a new hash. */
  public static final int ITERATIONS = 210_000;

  private static final String ALGORITHM = "PBKDF2WithHmacSHA512";
  private static final int SALT_BYTES = 16;
  private static final int HASH_BITS = 512;
  private static final Pattern FORM = Pattern.compile(
      "PBKDF2-SHA512:([1-9][0-9]{0,8}):([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)");

  private final int iterations;
  private final byte[] salt;
  private final byte[] hash;

  private PasswordHash(int iterations, byte[] salt, byte[] hash) {
    this.iterations = iterations;
    this.salt = salt;
    this.hash = hash;
  }

  /** The hash of a new password, with a new random salt. */
  public static PasswordHash of(char[] password) {
    final byte[] salt = new byte[SALT_BYTES];
    new SecureRandom().nextBytes(salt);
    return new PasswordHash(ITERATIONS, salt, derive(password, salt, ITERATIONS));
  }

  /**
   * A stored hash.
   *
   * @throws IllegalArgumentException if it is not of the form, without repeating it
   */
  public static PasswordHash parse(String stored) {
    final Matcher m = FORM.matcher(stored);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a " + PREFIX + "ITERATIONS:SALT:HASH password"
          + " hash");
    }
    try {
      return new PasswordHash(Integer.parseInt(m.group(1)),
          Base64.getDecoder().decode(m.group(2)), Base64.getDecoder().decode(m.group(3)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a " + PREFIX + " password hash whose salt or hash"
          + " is not Base64");
    }
  }

  /** Whether {@code password} is the one hashed, compared in constant time. */
  public boolean matches(char[] password) {
    return MessageDigest.isEqual(hash, derive(password, salt, iterations));
  }

  /** The stored form. */
  public String stored() {
    return PREFIX + iterations + ":" + Base64.getEncoder().encodeToString(salt) + ":"
        + Base64.getEncoder().encodeToString(hash);
  }

  /** Names the form only: the hash stays out of logs too. */
  @Override public String toString() {
    return "PasswordHash[" + PREFIX + iterations + "]";
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    final PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
    try {
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no " + ALGORITHM, e);
    } finally {
      spec.clearPassword();
    }
  }
}
