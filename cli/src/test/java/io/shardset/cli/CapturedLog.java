package io.shardset.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the process logs (SLF4J's simple logger writes to {@code System.err}) while it is
 * open, also passed on to the stream it replaced.
 */
public final class CapturedLog implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  public CapturedLog() {
    final OutputStream both = new OutputStream() {
      @Override public void write(int b) {
        synchronizedWrite(new byte[] {(byte) b}, 0, 1);
      }

      @Override public void write(byte[] b, int off, int len) {
        synchronizedWrite(b, off, len);
      }
    };
    System.setErr(new PrintStream(both, true, StandardCharsets.UTF_8));
  }

  private void synchronizedWrite(byte[] b, int off, int len) {
    synchronized (captured) {
      captured.write(b, off, len);
    }
    original.write(b, off, len);
  }

  /** Everything logged so far. */
  public String text() {
    synchronized (captured) {
      return captured.toString(StandardCharsets.UTF_8);
    }
  }

  /** The lines logged so far that contain {@code fragment}. */
  List<String> lines(String fragment) {
    return text().lines().filter(line -> line.contains(fragment))
        .collect(Collectors.toList());
  }

  @Override public void close() {
    System.setErr(original);
  }
}
