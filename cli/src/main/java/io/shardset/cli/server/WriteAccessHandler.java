package io.shardset.cli.server;

import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.server.AvaticaHandler;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Avatica's handler, told for each request which user sends it, whether that user may write,
 * and the scatter limit of the user's role ({@link Caller.Current}); and the server's
 * {@link MetricsEndpoint} and {@link HealthEndpoint}, which answer their own paths. Sits inside Jetty's security handler, so the user it sees
 * has authenticated and has one of the roles that may connect.
 */
final class WriteAccessHandler extends HandlerWrapper implements AvaticaHandler {
  /** The user name of requests on a server without authentication. */
  static final String ANONYMOUS = "(anonymous)";

  private final AvaticaHandler avatica;
  private final WriteAccess access;
  private final Caller.Current callers;
  private final List<RoleScatter> roleScatter;
  private final List<String> operatorRoles;
  private final MetricsEndpoint metrics;
  private final HealthEndpoint health;

  WriteAccessHandler(AvaticaHandler avatica, WriteAccess access, Caller.Current callers,
      List<RoleScatter> roleScatter, List<String> operatorRoles, MetricsEndpoint metrics,
      HealthEndpoint health) {
    this.avatica = Objects.requireNonNull(avatica, "avatica");
    this.access = Objects.requireNonNull(access, "access");
    this.callers = Objects.requireNonNull(callers, "callers");
    this.roleScatter = List.copyOf(roleScatter);
    this.operatorRoles = List.copyOf(operatorRoles);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.health = Objects.requireNonNull(health, "health");
    setHandler(avatica);
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException, ServletException {
    if (metrics.handle(target, request, response) || health.handle(target, request, response)) {
      baseRequest.setHandled(true);
      return;
    }
    if (access.authenticated() && request.getRemoteUser() == null) {
      // Only a path the security handler leaves open (the health check's, for load balancers)
      // arrives without a user; whatever else arrives on it never reaches the statements.
      response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
      baseRequest.setHandled(true);
      return;
    }
    final String user = request.getRemoteUser() == null ? ANONYMOUS : request.getRemoteUser();
    callers.set(Caller.of(user, request.getRemoteAddr(), request::isUserInRole, access,
        roleScatter, operatorRoles));
    try {
      super.handle(target, baseRequest, request, response);
    } finally {
      callers.clear();
    }
  }

  @Override public void setServerRpcMetadata(Service.RpcMetadataResponse metadata) {
    avatica.setServerRpcMetadata(metadata);
  }
}
