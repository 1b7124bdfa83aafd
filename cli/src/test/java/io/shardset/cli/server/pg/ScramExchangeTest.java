package io.shardset.cli.server.pg;

import io.shardset.cli.security.ScramSecret;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The server's side of SCRAM-SHA-256: RFC 7677's example exchange gives its server messages,
 * a wrong proof or an unknown user end the same way, and malformed or out-of-turn messages and
 * channel binding are refused.
 */
class ScramExchangeTest {
  /** RFC 7677, section 3: user "user", password "pencil". */
  private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
  private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
  private static final String SERVER_FIRST = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
      + "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
  private static final String CLIENT_FINAL = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj"
      + ")hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
  private static final String SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
  private static final byte[] MOCK_KEY = "a key of the server".getBytes(StandardCharsets.UTF_8);

  private static ScramSecret pencil() {
    return ScramSecret.of("pencil".toCharArray(),
        Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ=="), 4096);
  }

  @Test void rfc7677sExchangeGivesItsServerMessages() {
    final ScramExchange exchange = new ScramExchange(pencil(), true, SERVER_NONCE);
    assertEquals(SERVER_FIRST, exchange.serverFirst(CLIENT_FIRST));
    assertEquals(Optional.of(SERVER_FINAL), exchange.serverFinal(CLIENT_FINAL));
  }

  @Test void aWrongProofIsRefused() {
    final ScramExchange exchange = new ScramExchange(pencil(), true, SERVER_NONCE);
    exchange.serverFirst(CLIENT_FIRST);
    final String wrong = CLIENT_FINAL.replace("p=dHzb", "p=dHzc");
    assertEquals(Optional.empty(), exchange.serverFinal(wrong));
  }

  @Test void anUnknownUserRunsToTheEndAndFailsThereWithAStableSalt() {
    final SecureRandom random = new SecureRandom();
    final ScramExchange first = ScramExchange.start(null, "nobody", MOCK_KEY, random);
    final String serverFirst = first.serverFirst(CLIENT_FIRST);
    final String nonce = serverFirst.substring(2, serverFirst.indexOf(','));
    assertEquals(Optional.empty(), first.serverFinal("c=biws,r=" + nonce
        + ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
    // The same made-up salt each time for a name, another for another name: asking twice
    // does not tell an unknown user from a known one.
    final String again = ScramExchange.start(null, "nobody", MOCK_KEY, random)
        .serverFirst(CLIENT_FIRST);
    assertEquals(salt(serverFirst), salt(again));
    assertNotEquals(salt(serverFirst), salt(ScramExchange.start(null, "somebody", MOCK_KEY,
        random).serverFirst(CLIENT_FIRST)));
    assertNotEquals(serverFirst, again, "a new server nonce each time");
  }

  @Test void malformedOrOutOfTurnMessagesAndChannelBindingAreRefused() {
    final ScramExchange exchange = new ScramExchange(pencil(), true, SERVER_NONCE);
    assertEquals("malformed SCRAM exchange order", assertThrows(
        IllegalArgumentException.class, () -> exchange.serverFinal(CLIENT_FINAL)).getMessage());
    assertEquals("SCRAM channel binding is not supported: use SCRAM-SHA-256, not"
        + " SCRAM-SHA-256-PLUS", assertThrows(IllegalArgumentException.class,
            () -> exchange.serverFirst("p=tls-server-end-point,,n=,r=abc")).getMessage());
    for (String bad : new String[] {"", "x,,n=,r=abc", "n,,r=abc", "n,,n=,r=", "n,"}) {
      assertEquals("malformed SCRAM client-first-message", assertThrows(
          IllegalArgumentException.class, () -> exchange.serverFirst(bad)).getMessage(), bad);
    }
    exchange.serverFirst(CLIENT_FIRST);
    assertEquals("malformed SCRAM client-final-message nonce", assertThrows(
        IllegalArgumentException.class, () -> exchange.serverFinal(
            CLIENT_FINAL.replace("r=rOpr", "r=xOpr"))).getMessage());
    assertEquals("malformed SCRAM client-final-message channel binding", assertThrows(
        IllegalArgumentException.class, () -> exchange.serverFinal(
            CLIENT_FINAL.replace("c=biws", "c=cD10bHM="))).getMessage());
    assertEquals("malformed SCRAM client-final-message proof", assertThrows(
        IllegalArgumentException.class, () -> exchange.serverFinal(
            CLIENT_FINAL.replace("p=dHzb", "p=!Hzb"))).getMessage());
  }

  private static String salt(String serverFirst) {
    return serverFirst.substring(serverFirst.indexOf(",s="), serverFirst.indexOf(",i="));
  }
}
