package io.shardset.cli.server.pg;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare client of the protocol, for what no well-behaved client sends: it writes bytes as
 * told and reads the server's messages one by one.
 */
final class PgWire implements AutoCloseable {
  /** A message from the server. */
  record Message(char type, byte[] body) {
    /** An ErrorResponse's field, by its code ({@code C} for the SQLState, {@code M}). */
    String field(char code) {
      int i = 0;
      while (i < body.length && body[i] != 0) {
        int end = i + 1;
        while (body[end] != 0) {
          end++;
        }
        if (body[i] == code) {
          return new String(body, i + 1, end - i - 1, StandardCharsets.UTF_8);
        }
        i = end + 1;
      }
      return null;
    }
  }

  private final Socket socket;
  private final DataOutputStream out;
  private final DataInputStream in;

  PgWire(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    out = new DataOutputStream(socket.getOutputStream());
    in = new DataInputStream(socket.getInputStream());
  }

  /** A startup message of protocol 3.0 with these name and value pairs. */
  PgWire startup(String... parameters) throws IOException {
    final java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    for (String parameter : parameters) {
      body.writeBytes(parameter.getBytes(StandardCharsets.UTF_8));
      body.write(0);
    }
    body.write(0);
    out.writeInt(8 + body.size());
    out.writeInt(PgFrameDecoder.PROTOCOL_3);
    out.write(body.toByteArray());
    out.flush();
    return this;
  }

  /** A message of a type with a body. */
  PgWire send(char type, byte[] body) throws IOException {
    out.writeByte(type);
    out.writeInt(4 + body.length);
    out.write(body);
    out.flush();
    return this;
  }

  /** A simple query. */
  PgWire query(String sql) throws IOException {
    final byte[] text = sql.getBytes(StandardCharsets.UTF_8);
    final byte[] body = new byte[text.length + 1];
    System.arraycopy(text, 0, body, 0, text.length);
    return send('Q', body);
  }

  /** Raw bytes. */
  PgWire raw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** The next message; null if the server closed the connection. */
  Message read() throws IOException {
    try {
      final int type = in.read();
      if (type < 0) {
        return null;
      }
      final int length = in.readInt();
      final byte[] body = new byte[length - 4];
      in.readFully(body);
      return new Message((char) type, body);
    } catch (EOFException e) {
      return null;
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server sent nothing for 30 s", e);
    }
  }

  /** Messages up to a ReadyForQuery, or to the connection's close, its own included. */
  List<Message> readUntilReady() throws IOException {
    final List<Message> messages = new ArrayList<>();
    Message message;
    while ((message = read()) != null) {
      messages.add(message);
      if (message.type() == 'Z') {
        break;
      }
    }
    return messages;
  }

  /** Whether the server closed the connection: nothing more comes. */
  boolean closedByServer() throws IOException {
    return read() == null;
  }

  void closeOutput() throws IOException {
    socket.shutdownOutput();
  }

  @Override public void close() throws IOException {
    socket.close();
  }
}
