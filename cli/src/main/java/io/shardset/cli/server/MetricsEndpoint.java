package io.shardset.cli.server;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The server's {@value #PATH}: the runtime's meters in Prometheus's text format, for a
 * scraper. It sits behind the same authentication as the queries: with {@code --users} a
 * scraper sends a user's credentials, as a client does.
 */
final class MetricsEndpoint implements AutoCloseable {
  /** The path a scraper asks. */
  static final String PATH = "/metrics";
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final CompositeMeterRegistry runtime;
  private final PrometheusMeterRegistry prometheus =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  /** Publishes the meters of {@code runtime} until {@link #close()}. */
  MetricsEndpoint(CompositeMeterRegistry runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    runtime.add(prometheus);
  }

  /** Answers a GET of {@value #PATH}; false for any other request, which it leaves alone. */
  boolean handle(String target, HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!PATH.equals(target) || !"GET".equals(request.getMethod())) {
      return false;
    }
    final byte[] body = prometheus.scrape().getBytes(StandardCharsets.UTF_8);
    response.setStatus(HttpServletResponse.SC_OK);
    response.setContentType(CONTENT_TYPE);
    response.setContentLength(body.length);
    try (OutputStream out = response.getOutputStream()) {
      out.write(body);
    }
    return true;
  }

  @Override public void close() {
    runtime.remove(prometheus);
    prometheus.close();
  }
}
