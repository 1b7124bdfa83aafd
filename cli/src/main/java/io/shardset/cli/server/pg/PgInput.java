package io.shardset.cli.server.pg;

import java.nio.charset.StandardCharsets;

/** Reads the fields of a message body in order: integers in network order, strings ended by a
 * zero byte, byte runs. A body too short for what is read is a protocol violation. */
final class PgInput {
  private final byte[] body;
  private int position;

  PgInput(byte[] body) {
    this.body = body;
  }

  byte readByte() {
    need(1);
    return body[position++];
  }

  short readShort() {
    need(2);
    final int value = ((body[position] & 0xff) << 8) | (body[position + 1] & 0xff);
    position += 2;
    return (short) value;
  }

  int readInt() {
    need(4);
    final int value = ((body[position] & 0xff) << 24) | ((body[position + 1] & 0xff) << 16)
        | ((body[position + 2] & 0xff) << 8) | (body[position + 3] & 0xff);
    position += 4;
    return value;
  }

  /** A count, which a client cannot make negative. */
  int readCount() {
    final int count = readShort();
    if (count < 0) {
      throw new PgProtocolException("negative count " + count + " in a message");
    }
    return count;
  }

  /** A string ended by a zero byte, in UTF-8. */
  String readString() {
    for (int end = position; end < body.length; end++) {
      if (body[end] == 0) {
        final String value = new String(body, position, end - position, StandardCharsets.UTF_8);
        position = end + 1;
        return value;
      }
    }
    throw new PgProtocolException("a string in a message has no end");
  }

  byte[] readBytes(int length) {
    if (length < 0) {
      throw new PgProtocolException("negative length " + length + " in a message");
    }
    need(length);
    final byte[] bytes = new byte[length];
    System.arraycopy(body, position, bytes, 0, length);
    position += length;
    return bytes;
  }

  /** What is left of the body. */
  byte[] readRest() {
    return readBytes(body.length - position);
  }

  boolean atEnd() {
    return position == body.length;
  }

  private void need(int bytes) {
    if (body.length - position < bytes) {
      throw new PgProtocolException("a message is shorter than its fields");
    }
  }
}
