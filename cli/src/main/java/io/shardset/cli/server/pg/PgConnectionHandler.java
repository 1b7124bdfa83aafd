package io.shardset.cli.server.pg;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One client connection on Netty's event loop: answers the requests of a connection's start
 * (SSL, GSS encryption, cancel), and hands the startup message to a thread of the client's own
 * ({@link PgClient}), where statements may block, and every message after it to that thread's
 * {@link PgInbox}.
 */
final class PgConnectionHandler extends SimpleChannelInboundHandler<PgFrame> {
  private static final Logger LOG = LoggerFactory.getLogger(PgConnectionHandler.class);
  static final int SSL_REQUEST = 80_877_103;
  static final int GSSENC_REQUEST = 80_877_104;
  static final int CANCEL_REQUEST = 80_877_102;

  private final PgListenerSettings settings;
  private final PgSessionOpener opener;
  private final PgBackends backends;
  private final AtomicInteger clients;
  private final PgSessionSchemas schemas;
  private @Nullable PgClient client;
  private @Nullable PgInbox inbox;
  private boolean tls;

  PgConnectionHandler(PgListenerSettings settings, PgSessionOpener opener, PgBackends backends,
      AtomicInteger clients, PgSessionSchemas schemas) {
    this.schemas = schemas;
    this.settings = settings;
    this.opener = opener;
    this.backends = backends;
    this.clients = clients;
  }

  @Override public void channelActive(ChannelHandlerContext ctx) throws Exception {
    clients.incrementAndGet();
    super.channelActive(ctx);
  }

  @Override protected void channelRead0(ChannelHandlerContext ctx, PgFrame frame) {
    final PgInbox started = inbox;
    if (started != null) {
      started.put(frame);
      return;
    }
    final PgInput input = frame.input();
    final int code = input.readInt();
    switch (code) {
    case SSL_REQUEST:
      if (settings.tls() != null && !tls) {
        tls = true;
        ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('S'));
        ctx.pipeline().addFirst("tls", settings.tls().newHandler(ctx.alloc()));
      } else {
        ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('N'));
      }
      return;
    case GSSENC_REQUEST:
      ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('N'));
      return;
    case CANCEL_REQUEST:
      backends.cancel(input.readInt(), input.readInt());
      ctx.close();
      return;
    case PgFrameDecoder.PROTOCOL_3:
      startup(ctx, input);
      return;
    default:
      throw new PgProtocolException("0A000", String.format(Locale.ROOT,
          "unsupported frontend protocol %d.%d: server supports 3.0", code >>> 16,
          code & 0xffff));
    }
  }

  private void startup(ChannelHandlerContext ctx, PgInput input) {
    final Map<String, String> parameters = new LinkedHashMap<>();
    while (true) {
      final String name = input.readString();
      if (name.isEmpty()) {
        break;
      }
      parameters.put(name, input.readString());
    }
    final String user = parameters.get("user");
    if (user == null || user.isEmpty()) {
      throw new PgProtocolException("28000", "no PostgreSQL user name specified in startup"
          + " packet");
    }
    if (clients.get() > settings.maxClients()) {
      throw new PgProtocolException("53300", "sorry, too many clients already");
    }
    final PgInbox messages = new PgInbox(ctx.channel());
    final PgClient started = new PgClient(ctx.channel(), address(ctx.channel().remoteAddress()),
        settings, opener, backends, messages, schemas);
    client = started;
    inbox = messages;
    final Thread serving = new Thread(() -> started.serve(parameters), started.name());
    serving.setDaemon(true);
    serving.start();
  }

  @Override public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    clients.decrementAndGet();
    final PgClient started = client;
    final PgInbox messages = inbox;
    if (started != null && messages != null) {
      started.cancelRunning();
      messages.close();
    }
    super.channelInactive(ctx);
  }

  @Override public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    final Throwable failure = cause instanceof DecoderException && cause.getCause() != null
        ? cause.getCause() : cause;
    if (failure instanceof PgProtocolException protocol) {
      final PgOutput out = new PgOutput(ctx.channel(), settings.writeTimeout());
      out.report('E', "FATAL", protocol.sqlState(), protocol.getMessage(), null);
      out.flushAndClose();
      return;
    }
    LOG.debug("PostgreSQL client connection failed", failure);
    ctx.close();
  }

  private static String address(SocketAddress address) {
    return address instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress().getHostAddress() : String.valueOf(address);
  }
}
