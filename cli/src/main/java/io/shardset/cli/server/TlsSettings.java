package io.shardset.cli.server;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's TLS material: its key and certificate chain, from a PKCS#12 key store or from
 * PEM files (an unencrypted PKCS#8 key, {@code -----BEGIN PRIVATE KEY-----}, and its
 * certificate chain), and optionally the certificate authorities that sign the certificates
 * clients must show (mutual TLS). Loading fails naming the file and what is wrong with it,
 * never a password.
 *
 * @param keyStore the key and certificate chain, as a key store with one key entry
 * @param keyPassword the key store's and the key's password
 * @param clientAuthorities the authorities of client certificates, or null when clients show
 *     none
 */
public record TlsSettings(KeyStore keyStore, char[] keyPassword,
    @Nullable KeyStore clientAuthorities) {
  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

  public TlsSettings {
    Objects.requireNonNull(keyStore, "keyStore");
    keyPassword = keyPassword.clone();
  }

  /** The key and certificate chain of a PKCS#12 file. */
  public static TlsSettings ofKeyStore(Path file, char[] password) {
    try (InputStream in = Files.newInputStream(file)) {
      final KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password);
      if (keyAlias(store) == null) {
        throw new IllegalArgumentException("the TLS key store " + file + " holds no private"
            + " key");
      }
      return new TlsSettings(store, password, null);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot read the TLS key store " + file
          + " (PKCS#12, with the password given): " + reason(e), e);
    }
  }

  /** The key of a PEM file (unencrypted PKCS#8) and the certificate chain of another. */
  public static TlsSettings ofPem(Path keyFile, Path certificateFile) {
    final List<X509Certificate> chain = certificates(certificateFile);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("the TLS certificate file " + certificateFile
          + " holds no certificate");
    }
    final PrivateKey key = privateKey(keyFile);
    try {
      final char[] password = new char[0];
      final KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, password);
      store.setKeyEntry("server", key, password, chain.toArray(new Certificate[0]));
      return new TlsSettings(store, password, null);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("the TLS key " + keyFile + " does not go with the"
          + " certificate " + certificateFile + ": " + reason(e), e);
    }
  }

  /** The same where clients must show a certificate signed by one in a PEM file. */
  public TlsSettings withClientAuthorities(Path pemFile) {
    final List<X509Certificate> authorities = certificates(pemFile);
    if (authorities.isEmpty()) {
      throw new IllegalArgumentException("the client certificate authority file " + pemFile
          + " holds no certificate");
    }
    try {
      final KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, new char[0]);
      for (int i = 0; i < authorities.size(); i++) {
        store.setCertificateEntry("ca" + i, authorities.get(i));
      }
      return new TlsSettings(keyStore, keyPassword, store);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot use the client certificate authorities of "
          + pemFile + ": " + reason(e), e);
    }
  }

  /** Whether clients must show a certificate. */
  public boolean needsClientCertificates() {
    return clientAuthorities != null;
  }

  @Override public char[] keyPassword() {
    return keyPassword.clone();
  }

  /** Names the settings without their password. */
  @Override public String toString() {
    return "TlsSettings[" + (needsClientCertificates() ? "mutual" : "server") + "]";
  }

  private static @Nullable String keyAlias(KeyStore store) throws GeneralSecurityException {
    for (String alias : Collections.list(store.aliases())) {
      if (store.isKeyEntry(alias)) {
        return alias;
      }
    }
    return null;
  }

  private static List<X509Certificate> certificates(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      final Collection<? extends Certificate> read =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      final List<X509Certificate> certificates = new ArrayList<>();
      for (Certificate certificate : read) {
        certificates.add((X509Certificate) certificate);
      }
      return certificates;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("cannot read the certificates in " + file + " (PEM): "
          + reason(e), e);
    }
  }

  private static PrivateKey privateKey(Path file) {
    final String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the TLS key " + file + ": " + reason(e),
          e);
    }
    final Matcher pem = PEM.matcher(text);
    if (!pem.find() || !pem.group(1).equals("PRIVATE KEY")) {
      throw new IllegalArgumentException("the TLS key " + file + " is not an unencrypted"
          + " PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----); convert it with"
          + " 'openssl pkcs8 -topk8 -nocrypt'");
    }
    final byte[] der = Base64.getMimeDecoder().decode(pem.group(2));
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // Another algorithm, then.
      }
    }
    throw new IllegalArgumentException("the TLS key " + file + " is not an RSA, EC or Ed25519"
        + " key");
  }

  /** What went wrong, without the stack of causes a password could appear in. */
  private static String reason(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
