package io.shardset.cli.server;

import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.OptionalSslConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Puts TLS in front of the HTTP of Avatica's one connector, before the server starts: TLS 1.2
 * and 1.3 with the JDK's default cipher suites, the server's key, and with client
 * authorities a certificate every client must show. Avatica's own TLS option takes key store
 * files only and never asks clients for certificates.
 */
final class TlsConnector {
  /** The protocols offered: the JDK's older ones are not. */
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private TlsConnector() {
  }

  /** Turns the server's connectors to TLS. */
  static void apply(Server server, TlsSettings tls) {
    for (Connector connector : server.getConnectors()) {
      final ServerConnector serverConnector = (ServerConnector) connector;
      final HttpConnectionFactory http =
          serverConnector.getConnectionFactory(HttpConnectionFactory.class);
      final SecureRequestCustomizer secure = new SecureRequestCustomizer();
      // Clients reach servers by address as often as by name; the certificate's names are
      // for the client to check.
      secure.setSniHostCheck(false);
      http.getHttpConfiguration().addCustomizer(secure);
      final SslConnectionFactory ssl = new SslConnectionFactory(contextFactory(tls),
          HttpVersion.HTTP_1_1.asString());
      serverConnector.addFirstConnectionFactory(ssl);
      final PlainHttpRefusal refusal = new PlainHttpRefusal(ssl);
      serverConnector.addFirstConnectionFactory(refusal);
      serverConnector.setDefaultProtocol(refusal.getProtocol());
    }
  }

  /**
   * Answers a request in plain HTTP with 400 and closes, where Jetty would close at once:
   * Avatica's client retries a request that got no response, forever.
   */
  static final class PlainHttpRefusal extends OptionalSslConnectionFactory {
    static final String BODY = "this server speaks HTTPS: connect with an https:// URL";

    PlainHttpRefusal(SslConnectionFactory ssl) {
      super(ssl, null);
    }

    @Override protected void otherProtocol(ByteBuffer buffer, EndPoint endPoint) {
      final String response = "HTTP/1.1 400 Bad Request\r\n"
          + "Content-Type: text/plain;charset=utf-8\r\n"
          + "Content-Length: " + BODY.length() + "\r\n"
          + "Connection: close\r\n\r\n" + BODY;
      final Callback.Completable written = new Callback.Completable();
      endPoint.write(written, ByteBuffer.wrap(response.getBytes(StandardCharsets.US_ASCII)));
      written.whenComplete((result, failure) -> endPoint.close());
    }
  }

  private static SslContextFactory.Server contextFactory(TlsSettings tls) {
    final SslContextFactory.Server factory = new SslContextFactory.Server();
    factory.setKeyStore(tls.keyStore());
    factory.setKeyStorePassword(new String(tls.keyPassword()));
    factory.setKeyManagerPassword(new String(tls.keyPassword()));
    factory.setIncludeProtocols(PROTOCOLS);
    if (tls.clientAuthorities() != null) {
      factory.setTrustStore(tls.clientAuthorities());
      factory.setNeedClientAuth(true);
    }
    return factory;
  }
}
