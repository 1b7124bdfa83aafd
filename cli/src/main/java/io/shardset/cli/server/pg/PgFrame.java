package io.shardset.cli.server.pg;

import java.util.Objects;

/**
 * One message a client sent: its type byte and its body. The messages of the start of a
 * connection (startup, SSL request, cancel request) have no type byte; they come as type
 * {@link #UNTYPED}, their body beginning with the request code.
 *
 * @param type the message's type byte, or {@link #UNTYPED}
 * @param body the message after its type and length
 */
record PgFrame(byte type, byte[] body) {
  /** The type of a message of the start of a connection. */
  static final byte UNTYPED = 0;

  PgFrame {
    Objects.requireNonNull(body, "body");
  }

  /** The body, read from its start. */
  PgInput input() {
    return new PgInput(body);
  }
}
