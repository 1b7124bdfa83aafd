package io.shardset.cli;

import io.shardset.cli.server.ServerSecurity;
import io.shardset.cli.server.TlsSettings;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The TLS options of {@code shardset server}, read into {@link ServerSecurity}: a PKCS#12
 * key store (its password from a file or the environment, never the command line, which
 * other users of the machine can read) or a PEM certificate and key, and the authorities of
 * client certificates.
 */
record TlsOptions(@Nullable Path keystore, @Nullable Path passwordFile,
    @Nullable Path certificate, @Nullable Path key, @Nullable Path clientCa) {
  /** The environment variable that holds the key store's password. */
  static final String PASSWORD_VARIABLE = "SHARDSET_TLS_PASSWORD";

  /**
   * The security these options give.
   *
   * @throws IllegalArgumentException for options that do not go together or files that
   *     cannot be read, naming them
   */
  ServerSecurity security() {
    if (keystore == null && certificate == null && key == null) {
      if (clientCa != null) {
        throw new IllegalArgumentException("--tls-client-ca needs TLS: --tls-keystore, or"
            + " --tls-certificate and --tls-key");
      }
      return ServerSecurity.PLAIN;
    }
    if (keystore != null && (certificate != null || key != null)) {
      throw new IllegalArgumentException("give --tls-keystore, or --tls-certificate and"
          + " --tls-key, not both");
    }
    if (keystore == null && (certificate == null || key == null)) {
      throw new IllegalArgumentException("--tls-certificate and --tls-key go together");
    }
    final TlsSettings tls = keystore != null ? TlsSettings.ofKeyStore(keystore, password())
        : TlsSettings.ofPem(key, certificate);
    return ServerSecurity.PLAIN.withTls(clientCa == null ? tls
        : tls.withClientAuthorities(clientCa));
  }

  private char[] password() {
    if (passwordFile != null) {
      try {
        final List<String> lines = Files.readAllLines(passwordFile, StandardCharsets.UTF_8);
        return lines.isEmpty() ? new char[0] : lines.get(0).toCharArray();
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read the TLS password file "
            + passwordFile, e);
      }
    }
    final String variable = System.getenv(PASSWORD_VARIABLE);
    return variable == null ? new char[0] : variable.toCharArray();
  }
}
