package io.shardset.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on the loopback address in front of a local server, which can be switched to
 * drop everything silently (a network partition): it keeps every socket open, accepts new
 * ones, and discards what either side sends until it forwards again; or to refuse new
 * connections (each accepted and closed at once, as a server that is not there). It counts
 * the connections it accepted, so that a test can tell whether anything tried to connect. It
 * forwards at most {@value #MAX_CONNECTIONS} connections and ends with {@link #close()}.
 */
public final class DroppingProxy implements AutoCloseable {
  private static final int MAX_CONNECTIONS = 64;

  private final ServerSocket server;
  private final int targetPort;
  private final List<Socket> sockets = new ArrayList<>();
  private volatile boolean dropping;
  private volatile boolean refusing;
  private final AtomicInteger attempts = new AtomicInteger();
  private volatile boolean closed;

  private DroppingProxy(ServerSocket server, int targetPort) {
    this.server = server;
    this.targetPort = targetPort;
  }

  /** Starts a proxy to {@code 127.0.0.1:targetPort} on a free loopback port. */
  public static DroppingProxy start(int targetPort) throws IOException {
    final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    final DroppingProxy proxy = new DroppingProxy(server, targetPort);
    daemon("proxy-accept", proxy::accept).start();
    return proxy;
  }

  /** The port the proxy listens on. */
  public int port() {
    return server.getLocalPort();
  }

  /** Drops (true) or forwards (false) from now on. */
  public void drop(boolean drop) {
    dropping = drop;
  }

  /**
   * Refuses new connections (true) and closes the open ones, as a server that went away, or
   * accepts them again (false).
   */
  public void refuse(boolean refuse) {
    refusing = refuse;
    if (refuse) {
      synchronized (sockets) {
        sockets.forEach(DroppingProxy::closeQuietly);
        sockets.clear();
      }
    }
  }

  /** The connections accepted so far, refused ones included. */
  public int attempts() {
    return attempts.get();
  }

  private void accept() {
    int accepted = 0;
    while (!closed && accepted < MAX_CONNECTIONS) {
      try {
        final Socket client = server.accept();
        attempts.incrementAndGet();
        if (refusing) {
          closeQuietly(client);
          continue;
        }
        final Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        synchronized (sockets) {
          sockets.add(client);
          sockets.add(target);
        }
        accepted++;
        daemon("proxy-up", () -> pump(client, target)).start();
        daemon("proxy-down", () -> pump(target, client)).start();
      } catch (IOException e) {
        return;
      }
    }
  }

  /** Copies one direction until either side closes; then closes both. */
  private void pump(Socket from, Socket to) {
    final byte[] buffer = new byte[16384];
    try {
      final InputStream in = from.getInputStream();
      final OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (!dropping) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // One side went away: so does the other.
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static Thread daemon(String name, Runnable body) {
    final Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing anyway.
    }
  }

  @Override public void close() throws IOException {
    closed = true;
    server.close();
    synchronized (sockets) {
      sockets.forEach(DroppingProxy::closeQuietly);
    }
  }
}
