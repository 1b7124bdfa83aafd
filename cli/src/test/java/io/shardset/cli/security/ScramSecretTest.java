package io.shardset.cli.security;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SCRAM-SHA-256 verifiers: RFC 7677's example exchange checks out against the verifier of its
 * password, PostgreSQL's own verifier of a password is derived byte for byte, and a wrong proof,
 * a changed exchange or a malformed verifier are refused.
 */
class ScramSecretTest {
  /** RFC 7677, section 3: user "user", password "pencil". */
  private static final String CLIENT_FIRST_BARE = "n=user,r=rOprNGfwEbeRWgbNEkqO";
  private static final String SERVER_FIRST = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
      + "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
  private static final String CLIENT_FINAL_WITHOUT_PROOF =
      "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  private static final String PROOF = "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
  private static final String SERVER_SIGNATURE = "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
  private static final String AUTH_MESSAGE =
      CLIENT_FIRST_BARE + "," + SERVER_FIRST + "," + CLIENT_FINAL_WITHOUT_PROOF;

  /** What PostgreSQL 15 stored for {@code CREATE ROLE ... PASSWORD 'pencil'}. */
  private static final String POSTGRES_VERIFIER = "SCRAM-SHA-256$4096:T9MPWlkiyMXWgKMMu6d7pQ==$"
      + "C5jen+j5K1oyZZcEjjmtH307zCOPYqkfLe5m9bf0uto=:ljm3ClWIdl1HrI9cSZwrBadAQW7S0MKCOjZKGTve9YU=";

  @Test void rfc7677sExchangeChecksOut() {
    final ScramSecret secret = ScramSecret.of("pencil".toCharArray(),
        Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096);
    assertTrue(secret.verifies(Base64.getDecoder().decode(PROOF), AUTH_MESSAGE));
    assertEquals(SERVER_SIGNATURE,
        Base64.getEncoder().encodeToString(secret.serverSignature(AUTH_MESSAGE)));
  }

  @Test void aWrongProofOrAnotherExchangeIsRefused() {
    final ScramSecret secret = ScramSecret.of("pencil".toCharArray(),
        Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096);
    final byte[] proof = Base64.getDecoder().decode(PROOF);
    proof[0] ^= 1;
    assertFalse(secret.verifies(proof, AUTH_MESSAGE));
    assertFalse(secret.verifies(Base64.getDecoder().decode(PROOF), AUTH_MESSAGE + "x"));
    assertFalse(secret.verifies(new byte[3], AUTH_MESSAGE));
    final ScramSecret other = ScramSecret.of("pencil!".toCharArray(),
        Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096);
    assertFalse(other.verifies(Base64.getDecoder().decode(PROOF), AUTH_MESSAGE));
  }

  @Test void postgresqlsVerifierIsDerivedByteForByte() {
    final ScramSecret postgres = ScramSecret.parse(POSTGRES_VERIFIER);
    assertEquals(4096, postgres.iterations());
    final ScramSecret derived =
        ScramSecret.of("pencil".toCharArray(), postgres.salt(), postgres.iterations());
    assertEquals(POSTGRES_VERIFIER, derived.stored());
    assertEquals(POSTGRES_VERIFIER, postgres.stored());
  }

  @Test void aNewVerifierHasItsOwnSaltAndRoundTrips() {
    final ScramSecret first = ScramSecret.of("pencil".toCharArray());
    final ScramSecret second = ScramSecret.of("pencil".toCharArray());
    assertEquals(ScramSecret.ITERATIONS, first.iterations());
    assertFalse(Arrays.equals(first.salt(), second.salt()));
    assertEquals(first.stored(), ScramSecret.parse(first.stored()).stored());
    assertArrayEquals(first.salt(), ScramSecret.parse(first.stored()).salt());
    assertEquals("ScramSecret[SCRAM-SHA-256$4096]", first.toString());
  }

  @Test void aMalformedVerifierNamesTheFormWithoutRepeatingIt() {
    for (String bad : new String[] {"", "SCRAM-SHA-256$4096:c2FsdA==", "PBKDF2-SHA512:1:a:b",
        "SCRAM-SHA-256$0:c2FsdA==$a2V5:a2V5", "SCRAM-SHA-256$4096:c2FsdA==$a2V5:a2V5"}) {
      final IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ScramSecret.parse(bad));
      assertTrue(e.getMessage().startsWith("not a SCRAM-SHA-256$")
          || e.getMessage().endsWith("keys are not 32 bytes each"), e.getMessage());
      if (!bad.isEmpty()) {
        assertFalse(e.getMessage().contains(bad), e.getMessage());
      }
    }
  }
}
