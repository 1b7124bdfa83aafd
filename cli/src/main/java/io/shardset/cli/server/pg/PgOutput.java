package io.shardset.cli.server.pg;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Writes the server's messages to one client, gathered in chunks. A client that does not read
 * holds the writer back once Netty's buffer for it is full, so a large result never piles up in
 * the server's memory; one that reads nothing for the write timeout is cut off
 * ({@link ClientGoneException}), which ends the statement whose rows it left.
 */
final class PgOutput {
  /** What is gathered before it is handed to Netty. */
  private static final int CHUNK = 16 * 1024;

  private final Channel channel;
  private final Duration writeTimeout;
  private @Nullable ByteBuf buffer;
  private int messageStart;
  /** Whether a message was begun and not ended: a row whose value failed to read. */
  private boolean inMessage;

  PgOutput(Channel channel, Duration writeTimeout) {
    this.channel = channel;
    this.writeTimeout = writeTimeout;
  }

  /** The client closed its connection, or read nothing for the write timeout. */
  static final class ClientGoneException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ClientGoneException(String message) {
      super(message);
    }
  }

  // The messages, as PostgreSQL's protocol 3.0 lays them out.

  void authenticationOk() {
    begin('R').writeInt(0);
    end();
  }

  void authenticationSasl(String mechanism) {
    final ByteBuf out = begin('R');
    out.writeInt(10);
    string(mechanism);
    out.writeByte(0);
    end();
  }

  void authenticationSaslContinue(String data) {
    begin('R').writeInt(11).writeBytes(data.getBytes(StandardCharsets.UTF_8));
    end();
  }

  void authenticationSaslFinal(String data) {
    begin('R').writeInt(12).writeBytes(data.getBytes(StandardCharsets.UTF_8));
    end();
  }

  void parameterStatus(String name, String value) {
    begin('S');
    string(name);
    string(value);
    end();
  }

  void backendKeyData(int processId, int secret) {
    begin('K').writeInt(processId).writeInt(secret);
    end();
  }

  void readyForQuery(char status) {
    begin('Z').writeByte(status);
    end();
  }

  /** A RowDescription of columns described by their names, types and formats. */
  void rowDescription(List<PgColumn> columns, PgFormats formats) {
    final ByteBuf out = begin('T');
    out.writeShort(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      final PgColumn column = columns.get(i);
      string(column.name());
      out.writeInt(0).writeShort(0).writeInt(column.type().oid())
          .writeShort(column.type().length()).writeInt(column.type().modifier())
          .writeShort(formats.binary(i) ? 1 : 0);
    }
    end();
  }

  void parameterDescription(int[] oids) {
    final ByteBuf out = begin('t');
    out.writeShort(oids.length);
    for (int oid : oids) {
      out.writeInt(oid);
    }
    end();
  }

  /** Starts a DataRow of {@code count} values, each given by {@link #value}. */
  void dataRow(int count) {
    begin('D').writeShort(count);
  }

  /** A value of the DataRow being written, null for NULL. */
  void value(byte @Nullable [] value) {
    final ByteBuf out = buffer();
    if (value == null) {
      out.writeInt(-1);
    } else {
      out.writeInt(value.length).writeBytes(value);
    }
  }

  /** Ends the DataRow being written. */
  void endRow() {
    end();
  }

  /** A CopyInResponse ({@code G}) or CopyOutResponse ({@code H}) of text columns. */
  void copyResponse(char type, int columns) {
    final ByteBuf out = begin(type);
    out.writeByte(0).writeShort(columns);
    for (int i = 0; i < columns; i++) {
      out.writeShort(0);
    }
    end();
  }

  void copyData(byte[] data) {
    begin('d').writeBytes(data);
    end();
  }

  void copyDone() {
    begin('c');
    end();
  }

  void commandComplete(String tag) {
    begin('C');
    string(tag);
    end();
  }

  void emptyQueryResponse() {
    begin('I');
    end();
  }

  void parseComplete() {
    begin('1');
    end();
  }

  void bindComplete() {
    begin('2');
    end();
  }

  void closeComplete() {
    begin('3');
    end();
  }

  void noData() {
    begin('n');
    end();
  }

  void portalSuspended() {
    begin('s');
    end();
  }

  /** An ErrorResponse ({@code E}) or a NoticeResponse ({@code N}). */
  void report(char type, String severity, String sqlState, String message,
      @Nullable String detail) {
    final ByteBuf out = begin(type);
    out.writeByte('S');
    string(severity);
    out.writeByte('V');
    string(severity);
    out.writeByte('C');
    string(sqlState);
    out.writeByte('M');
    string(message);
    if (detail != null) {
      out.writeByte('D');
      string(detail);
    }
    out.writeByte(0);
    end();
  }

  void error(String sqlState, String message) {
    report('E', "ERROR", sqlState, message, null);
  }

  /** A single byte outside any message: the answer to an SSL or GSS encryption request. */
  void single(char answer) {
    buffer().writeByte(answer);
  }

  /** Hands what is gathered to the client's connection, and waits while its buffer is full. */
  void flush() {
    send(true);
  }

  /** Hands what is gathered to the client's connection and closes it once that is sent. */
  void flushAndClose() {
    final ByteBuf out = buffer;
    buffer = null;
    if (out == null) {
      channel.close();
    } else {
      channel.writeAndFlush(out).addListener(future -> channel.close());
    }
  }

  private ByteBuf begin(char type) {
    final ByteBuf out = buffer();
    if (inMessage) {
      // A message is only sent whole: what an abandoned one wrote goes.
      out.writerIndex(messageStart);
    }
    inMessage = true;
    messageStart = out.writerIndex();
    out.writeByte(type).writeInt(0);
    return out;
  }

  private void end() {
    final ByteBuf out = buffer();
    out.setInt(messageStart + 1, out.writerIndex() - messageStart - 1);
    inMessage = false;
    if (out.readableBytes() >= CHUNK) {
      send(false);
    }
  }

  private void string(String value) {
    buffer().writeCharSequence(value, StandardCharsets.UTF_8);
    buffer().writeByte(0);
  }

  private ByteBuf buffer() {
    if (buffer == null) {
      buffer = channel.alloc().buffer(CHUNK + 1024);
    }
    return buffer;
  }

  private void send(boolean flush) {
    if (inMessage && buffer != null) {
      buffer.writerIndex(messageStart);
      inMessage = false;
    }
    final ByteBuf out = buffer;
    buffer = null;
    if (out == null) {
      if (flush) {
        channel.flush();
      }
      return;
    }
    if (!channel.isActive()) {
      out.release();
      throw new ClientGoneException("the client closed its connection");
    }
    final ChannelFuture written = flush ? channel.writeAndFlush(out) : channel.write(out);
    if (!channel.isWritable()) {
      // The client reads slower than the rows come: wait until what was handed over is sent.
      channel.flush();
      boolean sent;
      try {
        sent = written.await(writeTimeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        sent = false;
      }
      if (!sent || !written.isSuccess()) {
        channel.close();
        throw new ClientGoneException(sent ? "the client closed its connection"
            : "the client read nothing for " + writeTimeout.toMillis() + " ms");
      }
    }
  }
}
