package io.shardset.cli.server;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardTable;
import io.shardset.execution.ShardEndpoint;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.lookup.LikePattern;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.eclipse.jetty.security.ConstraintMapping;
import org.eclipse.jetty.security.ConstraintSecurityHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.security.Constraint;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The server's {@value #PATH}, for load balancers: whether each shard of the served model
 * answers, as JSON with the shards' names and nothing else, e.g.
 * {@code {"status": "degraded", "shards": {"s0": "up", "s1": "down"}}}. HTTP 200 while at least
 * one shard answers ({@code up} when all do, {@code degraded} when some do not: the server still
 * serves the statements that reach only those that answer), 503 when none does. It needs no
 * credentials, so that a load balancer can ask without a user.
 *
 * <p>A probe asks every shard, {@value #PROBE_THREADS} at a time, for a pooled connection valid
 * within {@value #TIMEOUT_SECONDS} s, without queueing behind the pool's statements (a pool
 * whose connections are all in use answers by its live connections, see
 * {@code ShardEndpoint.answers}); requests that arrive while a probe runs share it, and no
 * request waits more than {@value #DEADLINE_SECONDS} s, so that load balancers polling at once
 * neither multiply the shards' work nor hold the server's threads.
 */
final class HealthEndpoint implements AutoCloseable {
  /** The path a load balancer asks. */
  static final String PATH = "/health";
  private static final int PROBE_THREADS = 8;
  private static final int TIMEOUT_SECONDS = 2;
  /** How long a request waits for a shard's answer; a shard not answering by then is down. */
  private static final int DEADLINE_SECONDS = 5;

  private final Connection model;
  /** The last probe, done or running; guarded by this. */
  private @Nullable CompletableFuture<Map<String, Boolean>> running;
  private final ExecutorService probes = Executors.newFixedThreadPool(PROBE_THREADS, r -> {
    final Thread thread = new Thread(r, "shardset-health");
    thread.setDaemon(true);
    return thread;
  });

  /** Reports on the shards of the model the server's own connection holds open. */
  HealthEndpoint(Connection model) {
    this.model = Objects.requireNonNull(model, "model");
  }

  /** Answers a GET of {@value #PATH}; false for any other request, which it leaves alone. */
  boolean handle(String target, HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    if (!PATH.equals(target)) {
      return false;
    }
    if (!"GET".equals(request.getMethod())) {
      // The path is open to all: nothing but the health check may be asked on it.
      response.setHeader("Allow", "GET");
      response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      return true;
    }
    final Map<String, Boolean> shards = current();
    final long up = shards.values().stream().filter(Boolean::booleanValue).count();
    final String status = up == shards.size() && up > 0 ? "up" : up > 0 ? "degraded" : "down";
    final StringBuilder json = new StringBuilder("{\"status\": \"").append(status)
        .append("\", \"shards\": {");
    String separator = "";
    for (Map.Entry<String, Boolean> shard : shards.entrySet()) {
      json.append(separator).append('"').append(escape(shard.getKey())).append("\": \"")
          .append(shard.getValue() ? "up" : "down").append('"');
      separator = ", ";
    }
    final byte[] body = json.append("}}\n").toString().getBytes(StandardCharsets.UTF_8);
    response.setStatus(up > 0 ? HttpServletResponse.SC_OK
        : HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    response.setContentType("application/json; charset=utf-8");
    response.setContentLength(body.length);
    try (OutputStream out = response.getOutputStream()) {
      out.write(body);
    }
    return true;
  }

  /**
   * Whether each shard answers, by name in model order: the answer of the probe running now,
   * which every request arriving while it runs shares, or of a new one; a shard that has not
   * answered within {@value #DEADLINE_SECONDS} s reads down.
   */
  private Map<String, Boolean> current() {
    final CompletableFuture<Map<String, Boolean>> probe;
    synchronized (this) {
      if (running == null || running.isDone()) {
        running = probe();
      }
      probe = running;
    }
    return probe.join();
  }

  /** Asks every shard at once, each bounded by its own deadline. */
  private CompletableFuture<Map<String, Boolean>> probe() {
    final Map<String, ShardEndpoint> endpoints = endpoints();
    final Map<String, CompletableFuture<Boolean>> answers = new LinkedHashMap<>();
    endpoints.forEach((name, endpoint) -> answers.put(name, CompletableFuture
        .supplyAsync(() -> endpoint.answers(TIMEOUT_SECONDS), probes)
        .completeOnTimeout(false, DEADLINE_SECONDS, TimeUnit.SECONDS)));
    return CompletableFuture.allOf(answers.values().toArray(new CompletableFuture<?>[0]))
        .thenApply(done -> {
          final Map<String, Boolean> result = new LinkedHashMap<>();
          answers.forEach((name, answer) -> result.put(name, answer.join()));
          return result;
        });
  }

  /** The endpoint of every shard that holds a table of the model, by name. */
  private Map<String, ShardEndpoint> endpoints() {
    final Map<String, ShardEndpoint> endpoints = new LinkedHashMap<>();
    final SchemaPlus root;
    try {
      root = model.unwrap(CalciteConnection.class).getRootSchema();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    for (String name : root.subSchemas().getNames(LikePattern.any())) {
      final SchemaPlus schema = root.subSchemas().get(name);
      if (schema == null) {
        continue;
      }
      final ShardSchema shards;
      try {
        shards = schema.unwrap(ShardSchema.class);
      } catch (ClassCastException e) {
        continue;
      }
      for (String tableName : shards.tableNames()) {
        final ShardTable table = shards.table(tableName);
        for (int shard = 0; shard < table.shardCount(); shard++) {
          endpoints.putIfAbsent(table.shardName(shard), table.site(shard).endpoint());
        }
      }
    }
    return endpoints;
  }

  /** A shard name as a JSON string's content. */
  private static String escape(String text) {
    final StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\');
      }
      out.append(c < 0x20 ? ' ' : c);
    }
    return out.toString();
  }

  /**
   * Lets requests for {@value #PATH} through the server's authentication, whose constraint
   * covers every path: a load balancer has no user. The most specific path's constraint wins.
   */
  static void openToAll(Server server) {
    final ConstraintSecurityHandler security =
        server.getChildHandlerByClass(ConstraintSecurityHandler.class);
    if (security == null) {
      return;
    }
    final Constraint open = new Constraint();
    open.setName("health");
    open.setAuthenticate(false);
    final ConstraintMapping mapping = new ConstraintMapping();
    mapping.setConstraint(open);
    mapping.setPathSpec(PATH);
    security.addConstraintMapping(mapping);
  }

  @Override public void close() {
    probes.shutdownNow();
  }
}
