package io.shardset.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Certificates made for a test with the JDK's {@code keytool}, as docs/server.md shows: a
 * certificate authority, a server key and certificate it signs (for {@code localhost} and
 * {@code 127.0.0.1}), a trust store holding the authority for clients, client certificates it
 * signs, and one it does not. Every store is PKCS#12 with the password {@link #PASSWORD}.
 */
final class TestCertificates {
  static final String PASSWORD = "changeit";

  private final Path folder;

  private TestCertificates(Path folder) {
    this.folder = folder;
  }

  /** Makes the authority, the server's key store and the clients' trust store. */
  static TestCertificates create(Path folder) throws IOException, InterruptedException {
    final TestCertificates made = new TestCertificates(folder);
    made.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", "CN=ShardSet Test CA", "-ext", "bc:c", "-validity", "2",
        "-keystore", "ca.p12");
    made.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file",
        "ca.pem");
    made.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore",
        "truststore.p12");
    made.signed("server", "CN=localhost", "san=dns:localhost,ip:127.0.0.1");
    return made;
  }

  /** Makes a key store whose certificate the authority signs, for a client or server. */
  Path signed(String name, String subject, String... extensions)
      throws IOException, InterruptedException {
    final String store = name + ".p12";
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", subject, "-validity", "2", "-keystore", store);
    keytool("-certreq", "-alias", name, "-keystore", store, "-file", name + ".csr");
    final List<String> sign = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", "ca",
        "-keystore", "ca.p12", "-infile", name + ".csr", "-outfile", name + ".pem",
        "-validity", "2"));
    for (String extension : extensions) {
      sign.add("-ext");
      sign.add(extension);
    }
    keytool(sign.toArray(new String[0]));
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", store);
    keytool("-importcert", "-alias", name, "-file", name + ".pem", "-keystore", store);
    return folder.resolve(store);
  }

  /** Makes a key store whose certificate signs itself: no authority vouches for it. */
  Path selfSigned(String name, String subject) throws IOException, InterruptedException {
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1",
        "-dname", subject, "-validity", "2", "-keystore", name + ".p12");
    return folder.resolve(name + ".p12");
  }

  Path serverKeyStore() {
    return folder.resolve("server.p12");
  }

  Path trustStore() {
    return folder.resolve("truststore.p12");
  }

  Path authority() {
    return folder.resolve("ca.pem");
  }

  /**
   * Writes the server's key as an unencrypted PKCS#8 PEM file and its chain as PEM, as
   * {@code openssl pkcs12 -nodes} would; returns {key, chain}.
   */
  Path[] serverPem() throws IOException, GeneralSecurityException {
    final KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(serverKeyStore())) {
      store.load(in, PASSWORD.toCharArray());
    }
    final Key key = store.getKey("server", PASSWORD.toCharArray());
    final Path keyFile = folder.resolve("server-key.pem");
    Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
    final StringBuilder chain = new StringBuilder();
    for (Certificate certificate : store.getCertificateChain("server")) {
      chain.append(pem("CERTIFICATE", certificate.getEncoded()));
    }
    final Path chainFile = folder.resolve("server-chain.pem");
    Files.writeString(chainFile, chain, StandardCharsets.US_ASCII);
    return new Path[] {keyFile, chainFile};
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private void keytool(String... arguments) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    command.addAll(List.of("-storepass", PASSWORD, "-storetype", "PKCS12"));
    final Process process = new ProcessBuilder(command).directory(folder.toFile())
        .redirectErrorStream(true).start();
    final String output = new String(process.getInputStream().readAllBytes(),
        StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IOException("keytool " + String.join(" ", arguments).toLowerCase(Locale.ROOT)
          + " failed: " + output);
    }
  }
}
