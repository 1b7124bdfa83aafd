package io.shardset.cli.server.pg;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Cuts what a client sends into {@link PgFrame}s: at the start of a connection, messages of a
 * length and a request code (SSL request, startup, cancel request); after a startup message,
 * messages of a type byte and a length. A length out of bounds ends the connection (see
 * {@link PgProtocolException}) before anything of that size is held.
 */
final class PgFrameDecoder extends ByteToMessageDecoder {
  /** The code of a startup message of protocol 3.0. */
  static final int PROTOCOL_3 = 196_608;
  /** The longest message of the start of a connection PostgreSQL takes. */
  private static final int MAX_STARTUP_LENGTH = 10_000;

  private final int maxLength;
  private boolean started;

  /** A decoder of messages of at most {@code maxLength} bytes. */
  PgFrameDecoder(int maxLength) {
    this.maxLength = maxLength;
  }

  @Override protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (true) {
      final int header = started ? 5 : 4;
      if (in.readableBytes() < header) {
        return;
      }
      final int at = in.readerIndex();
      final byte type = started ? in.getByte(at) : PgFrame.UNTYPED;
      final int length = in.getInt(started ? at + 1 : at);
      final int lengthBytes = 4;
      if (length < lengthBytes || length > (started ? maxLength : MAX_STARTUP_LENGTH)) {
        in.skipBytes(in.readableBytes());
        throw new PgProtocolException("invalid message length " + length
            + (length > lengthBytes ? " (at most " + (started ? maxLength : MAX_STARTUP_LENGTH)
            + " bytes)" : ""));
      }
      if (in.readableBytes() < header - lengthBytes + length) {
        return;
      }
      in.skipBytes(header);
      final byte[] body = new byte[length - lengthBytes];
      in.readBytes(body);
      if (!started && body.length >= 4 && ((body[0] & 0xff) << 24 | (body[1] & 0xff) << 16
          | (body[2] & 0xff) << 8 | body[3] & 0xff) == PROTOCOL_3) {
        // Messages after a startup message carry their type.
        started = true;
      }
      out.add(new PgFrame(type, body));
    }
  }
}
