package io.shardset.cli.server;

import org.apache.calcite.avatica.remote.Driver;
import org.apache.calcite.avatica.remote.JsonService;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.server.AvaticaHandler;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import javax.servlet.ServletException;
import javax.servlet.ServletOutputStream;
import javax.servlet.WriteListener;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.HttpServletResponseWrapper;

/**
 * Avatica's handler, whose error responses carry no Java stack traces: Avatica sends the
 * printed stack traces of what failed, which for a request it cannot read (malformed JSON or
 * protobuf) are Jackson's or protobuf's frames. The service's own failures already print as
 * their reason ({@link RemoteErrorService}); this rewrites what remains, an error response's
 * traces replaced by its message, so that clients always get a list, never null.
 */
final class TracelessErrorHandler extends HandlerWrapper implements AvaticaHandler {
  private final AvaticaHandler avatica;
  private final Driver.Serialization serialization;

  TracelessErrorHandler(AvaticaHandler avatica, Driver.Serialization serialization) {
    this.avatica = Objects.requireNonNull(avatica, "avatica");
    this.serialization = Objects.requireNonNull(serialization, "serialization");
    setHandler(avatica);
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException, ServletException {
    final Buffered buffered = new Buffered(response);
    super.handle(target, baseRequest, request, buffered);
    final byte[] body = buffered.body();
    response.getOutputStream().write(
        response.getStatus() >= HttpServletResponse.SC_BAD_REQUEST ? traceless(body) : body);
  }

  /** The body with an error response's stack traces replaced by its message; other bodies
   * (Avatica's plain text for a GET, say) as they are. */
  private byte[] traceless(byte[] body) {
    try {
      final Service.Response response = serialization == Driver.Serialization.JSON
          ? JsonService.MAPPER.readValue(body, Service.Response.class)
          : new ProtobufTranslationImpl().parseResponse(body);
      if (!(response instanceof Service.ErrorResponse error)) {
        return body;
      }
      final Service.ErrorResponse reason = new Service.ErrorResponse(
          List.of(String.valueOf(error.errorMessage)), error.errorMessage, error.errorCode,
          error.sqlState, error.severity, error.rpcMetadata);
      return serialization == Driver.Serialization.JSON
          ? JsonService.MAPPER.writeValueAsBytes(reason)
          : new ProtobufTranslationImpl().serializeResponse(reason);
    } catch (IOException | RuntimeException e) {
      // Not an Avatica response: nothing of ours to rewrite.
      return body;
    }
  }

  @Override public void setServerRpcMetadata(Service.RpcMetadataResponse metadata) {
    avatica.setServerRpcMetadata(metadata);
  }

  /** The response, its body kept in memory (Avatica writes each whole, in one call). */
  private static final class Buffered extends HttpServletResponseWrapper {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private PrintWriter writer;

    Buffered(HttpServletResponse response) {
      super(response);
    }

    byte[] body() {
      if (writer != null) {
        writer.flush();
      }
      return bytes.toByteArray();
    }

    @Override public ServletOutputStream getOutputStream() {
      return new ServletOutputStream() {
        @Override public void write(int b) {
          bytes.write(b);
        }

        @Override public void write(byte[] b, int off, int len) {
          bytes.write(b, off, len);
        }

        @Override public boolean isReady() {
          return true;
        }

        @Override public void setWriteListener(WriteListener listener) {
          throw new UnsupportedOperationException("blocking writes only");
        }
      };
    }

    @Override public PrintWriter getWriter() {
      if (writer == null) {
        // Avatica's JSON responses are UTF-8, as its content type says.
        writer = new PrintWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8));
      }
      return writer;
    }
  }
}
