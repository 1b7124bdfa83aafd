package io.shardset.cli.server.pg;

import io.netty.channel.Channel;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The messages of one client waiting for its thread, in order: Netty's event loop puts them,
 * the client's thread takes them, one statement's at a time, or a COPY's data as it loads
 * them. While many wait, or a megabyte of them, the connection is read no further, so a client
 * that sends faster than its statements run holds no more than that in the server.
 */
final class PgInbox {
  /** Messages waiting at which reading stops, and where it goes on. */
  private static final int STOP_READING = 64;
  private static final int READ_AGAIN = 16;
  /** Bytes of messages waiting at which reading stops too: a client's few large messages
   * (Bind values, COPY data) hold no more than this, and the one being decoded. */
  private static final long STOP_READING_BYTES = 1 << 20;
  /** What follows the last message of a connection that closed. */
  private static final PgFrame CLOSED = new PgFrame((byte) -1, new byte[0]);

  private final Channel channel;
  private final LinkedBlockingQueue<PgFrame> frames = new LinkedBlockingQueue<>();
  /** The bytes of the messages waiting. */
  private final AtomicLong bytes = new AtomicLong();

  PgInbox(Channel channel) {
    this.channel = channel;
  }

  /** A message the client sent; on the event loop. */
  void put(PgFrame frame) {
    final long waiting = bytes.addAndGet(frame.body().length);
    frames.add(frame);
    if (frames.size() >= STOP_READING || waiting >= STOP_READING_BYTES) {
      channel.config().setAutoRead(false);
    }
  }

  /** The connection closed: after the messages waiting, nothing more comes. */
  void close() {
    frames.add(CLOSED);
  }

  /** The next message, waiting for it; null once the connection closed. */
  @Nullable PgFrame take() throws InterruptedException {
    final PgFrame frame = frames.take();
    if (frame == CLOSED) {
      frames.add(CLOSED);
      return null;
    }
    final long waiting = bytes.addAndGet(-frame.body().length);
    if (frames.size() <= READ_AGAIN && waiting < STOP_READING_BYTES / 2
        && !channel.config().isAutoRead() && channel.isActive()) {
      channel.config().setAutoRead(true);
    }
    return frame;
  }
}
