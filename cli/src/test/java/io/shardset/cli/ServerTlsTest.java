package io.shardset.cli;

import io.shardset.calcite.remote.ShardSetRemoteDriver;
import io.shardset.cli.server.ServerSecurity;
import io.shardset.cli.server.ServerSettings;
import io.shardset.cli.server.ShardSetServer;
import io.shardset.cli.server.TlsSettings;

import org.apache.calcite.avatica.remote.Driver;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.net.ssl.SSLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server over TLS, with certificates the test makes with keytool: the Avatica remote
 * driver and {@code jdbc:shardset:remote:} query over {@code https} with a trust store, from a
 * PKCS#12 key store and from PEM files; plain HTTP to the TLS port and a client that does not
 * trust the authority fail and leave the server serving; with client authorities a client
 * certificate signs its user in without a password, and a client without one, or with one the
 * authority did not sign, is refused; a network address is not served over plain HTTP unless
 * the operator says so; a key store that cannot be read is named, its password is not.
 */
class ServerTlsTest {
  private static final String MODEL = "\"chunks\": 60, \"tables\": ["
      + "{\"name\": \"CUSTOMERS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]";
  private static final String CUSTOMERS_DDL = "CREATE TABLE CUSTOMERS (ID BIGINT PRIMARY KEY,"
      + " NAME VARCHAR(20) NOT NULL)";

  @TempDir static Path keys;
  private static TestCertificates certificates;
  private static Path alice;
  private static Path stranger;

  @TempDir Path folder;
  private H2Shards shards;
  private Path users;
  private ShardSetServer server;

  @BeforeAll static void makeCertificates() throws Exception {
    certificates = TestCertificates.create(keys);
    alice = certificates.signed("alice", "CN=alice, O=ShardSet Test");
    stranger = certificates.selfSigned("stranger", "CN=alice");
  }

  @BeforeEach void createShards() throws Exception {
    shards = H2Shards.create(folder, 2, MODEL, CUSTOMERS_DDL);
    users = folder.resolve("users.properties");
    Files.writeString(users, "alice: secret,users,write\n");
  }

  @AfterEach void stop() throws SQLException {
    if (server != null) {
      server.close();
    }
    shards.close();
  }

  private ServerSettings settings(TlsSettings tls) {
    return ServerSettings.loopback(shards.modelFile(), 0, Driver.Serialization.PROTOBUF)
        .withUsers(users, List.of("users"))
        .withSecurity(ServerSecurity.PLAIN.withTls(tls));
  }

  private static TlsSettings keyStore() {
    return TlsSettings.ofKeyStore(certificates.serverKeyStore(),
        TestCertificates.PASSWORD.toCharArray());
  }

  private String trusting() {
    return ";truststore=" + certificates.trustStore() + ";truststore_password="
        + TestCertificates.PASSWORD;
  }

  private static final String ALICE = ";avatica_user=alice;avatica_password=secret";

  private static long count(Connection connection) throws SQLException {
    try (Statement s = connection.createStatement()) {
      return Long.parseLong(H2Shards.rows(s.executeQuery("SELECT COUNT(*) FROM CUSTOMERS"))
          .get(0));
    }
  }

  @Test void bothDriversQueryOverHttps() throws Exception {
    server = ShardSetServer.start(settings(keyStore()));
    assertTrue(server.jdbcUrl().startsWith("jdbc:avatica:remote:url=https://127.0.0.1:"),
        server.jdbcUrl());
    try (Connection avatica = DriverManager.getConnection(server.jdbcUrl() + ALICE
        + trusting())) {
      try (Statement s = avatica.createStatement()) {
        assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (1, 'Ann')"));
      }
      assertEquals(1, count(avatica));
    }
    try (Connection remote = DriverManager.getConnection(shardset(server.jdbcUrl()) + ALICE
        + trusting())) {
      assertEquals("ShardSet", remote.getMetaData().getDatabaseProductName());
      assertEquals(1, count(remote));
    }
  }

  /** Also the probe: nothing logged or answered holds a password or the key. */
  /**
   * The PostgreSQL port answers an SSL request with TLS on the same key: psql's
   * {@code sslmode=require} gets an encrypted connection, and pgJDBC's {@code ssl=true} logs in
   * over it with SCRAM.
   */
  @Test void postgresqlClientsGetTlsOnTheServersKey() throws Exception {
    server = ShardSetServer.start(settings(keyStore()).withPgPort(0));
    final Process psql = new ProcessBuilder("psql", "-X", "-c", "\\conninfo",
        "host=127.0.0.1 port=" + server.pgPort() + " dbname=shardset user=alice"
            + " password=secret sslmode=require").redirectErrorStream(true).start();
    final String out = new String(psql.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    assertEquals(0, psql.waitFor(), out);
    assertTrue(out.contains("SSL connection (protocol: TLSv1."), out);
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:"
        + server.pgPort() + "/shardset?user=alice&password=secret&sslmode=require"
        + "&sslfactory=org.postgresql.ssl.NonValidatingFactory");
         Statement s = c.createStatement()) {
      assertEquals(0, count(c));
    }
  }

  @Test void aServerOfPemFilesServesHttpsAndLogsNoSecret() throws Exception {
    final Path[] pem = certificates.serverPem();
    final List<String> keyLines = Files.readAllLines(pem[0]);
    try (CapturedLog log = new CapturedLog()) {
      server = ShardSetServer.start(settings(TlsSettings.ofPem(pem[0], pem[1])));
      try (Connection c = DriverManager.getConnection(server.jdbcUrl() + ALICE
          + trusting())) {
        assertEquals(0, count(c));
      }
      final SQLException wrong = assertThrows(SQLException.class, () -> DriverManager
          .getConnection(shardset(server.jdbcUrl()) + ";avatica_user=alice"
              + ";avatica_password=not-the-secret" + trusting()));
      final String seen = log.text() + describe(wrong);
      for (String secret : List.of("secret", TestCertificates.PASSWORD, keyLines.get(1),
          keyLines.get(keyLines.size() - 2))) {
        assertFalse(seen.contains(secret), secret);
      }
    }
  }

  @Test void plainHttpToTheTlsPortFailsAndTheServerServesOn() throws Exception {
    server = ShardSetServer.start(settings(keyStore()));
    final String plain = shardset(server.jdbcUrl().replace("https://", "http://"));
    final SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(plain + ALICE));
    assertEquals("08001", e.getSQLState());
    assertEquals("cannot connect to the ShardSet server at http://127.0.0.1:" + server.port()
        + ": Failed to execute HTTP Request, got HTTP/400", e.getMessage());
    assertFalse(describe(e).contains("secret"), describe(e));
    try (Connection c = DriverManager.getConnection(server.jdbcUrl() + ALICE + trusting())) {
      assertEquals(0, count(c));
    }
  }

  @Test void aClientThatDoesNotTrustTheAuthorityIsRefused() throws Exception {
    server = ShardSetServer.start(settings(keyStore()));
    final SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(shardset(server.jdbcUrl()) + ALICE));
    assertEquals("08001", e.getSQLState());
    assertTrue(e.getMessage().startsWith("cannot connect to the ShardSet server at https://"
        + "127.0.0.1:" + server.port() + ": unable to find valid certification path"),
        e.getMessage());
    assertTrue(causedBy(e, SSLException.class), () -> describe(e));
  }

  @Test void aClientCertificateSignsItsUserInWithoutAPassword() throws Exception {
    server = ShardSetServer.start(settings(keyStore()
        .withClientAuthorities(certificates.authority())));
    try (Connection c = DriverManager.getConnection(server.jdbcUrl() + trusting()
        + presenting(alice))) {
      // alice may write: the certificate made her alice, not an anonymous caller.
      try (Statement s = c.createStatement()) {
        assertEquals(1, s.executeUpdate("INSERT INTO CUSTOMERS VALUES (2, 'Bo')"));
      }
      assertEquals(1, count(c));
    }
  }

  @Test void withClientAuthoritiesAClientWithoutASignedCertificateIsRefused()
      throws Exception {
    server = ShardSetServer.start(settings(keyStore()
        .withClientAuthorities(certificates.authority())));
    final SQLException none = assertThrows(SQLException.class, () -> DriverManager
        .getConnection(shardset(server.jdbcUrl()) + ALICE + trusting()));
    assertEquals("08001", none.getSQLState(), () -> describe(none));
    final SQLException unsigned = assertThrows(SQLException.class, () -> DriverManager
        .getConnection(shardset(server.jdbcUrl()) + ALICE + trusting()
            + presenting(stranger)));
    assertEquals("08001", unsigned.getSQLState(), () -> describe(unsigned));
  }

  @Test void aNetworkAddressIsNotServedOverPlainHttpUnlessAllowed() throws Exception {
    final ServerSettings network = ServerSettings.loopback(shards.modelFile(), 0,
        Driver.Serialization.PROTOBUF).withUsers(users, List.of("users")).withBind("0.0.0.0");
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ShardSetServer.start(network));
    assertEquals("refusing to serve on 0.0.0.0 over plain HTTP: passwords would cross the"
        + " network readable; give --tls-keystore (or --tls-certificate and --tls-key), or"
        + " --allow-plain-http behind a proxy that does TLS", e.getMessage());
    server = ShardSetServer.start(network.withSecurity(
        ServerSecurity.PLAIN.withPlainHttpAllowed(true)));
    try (Connection c = DriverManager.getConnection(server.jdbcUrl() + ALICE)) {
      assertEquals(0, count(c));
    }
  }

  @Test void aKeyStoreThatCannotBeReadIsNamedItsPasswordIsNot() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TlsSettings.ofKeyStore(certificates.serverKeyStore(),
            "wrong-password-42".toCharArray()));
    assertTrue(e.getMessage().startsWith("cannot read the TLS key store "
        + certificates.serverKeyStore() + " (PKCS#12, with the password given): "),
        e.getMessage());
    assertFalse(describe(e).contains("wrong-password-42"), describe(e));
  }

  /** The URL of {@code jdbc:shardset:remote:} for an Avatica URL. */
  private static String shardset(String avaticaUrl) {
    return avaticaUrl.replace("jdbc:avatica:remote:", ShardSetRemoteDriver.CONNECT_STRING_PREFIX);
  }

  private static String presenting(Path keyStore) {
    return ";keystore=" + keyStore + ";keystore_password=" + TestCertificates.PASSWORD
        + ";key_password=" + TestCertificates.PASSWORD;
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static String describe(Throwable e) {
    final StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      text.append(t).append(" <- ");
    }
    return text.toString();
  }
}
