package io.shardset.cli.server.pg;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A listener that speaks PostgreSQL's frontend/backend protocol 3.0, so that psql, pgbench,
 * every language's PostgreSQL driver and the BI tools that speak PostgreSQL reach a ShardSet
 * model as they reach a PostgreSQL database. Each client gets a session of its own on an
 * embedded ShardSet connection ({@link PgSessionOpener}), served on a thread of its own.
 */
public final class PgListener implements AutoCloseable {
  private final EventLoopGroup acceptor;
  private final EventLoopGroup io;
  private final Channel channel;
  private final AtomicInteger clients;

  private PgListener(EventLoopGroup acceptor, EventLoopGroup io, Channel channel,
      AtomicInteger clients) {
    this.acceptor = acceptor;
    this.io = io;
    this.channel = channel;
    this.clients = clients;
  }

  /**
   * Starts listening.
   *
   * @throws IllegalArgumentException if the address cannot be listened on (a port in use)
   */
  public static PgListener start(PgListenerSettings settings, PgSessionOpener opener) {
    final EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1,
        NioIoHandler.newFactory());
    final EventLoopGroup io = new MultiThreadIoEventLoopGroup(
        Math.max(2, Runtime.getRuntime().availableProcessors()), NioIoHandler.newFactory());
    final PgBackends backends = new PgBackends(settings.users().random());
    final AtomicInteger clients = new AtomicInteger();
    final PgSessionSchemas schemas = new PgSessionSchemas();
    try {
      final Channel channel = new ServerBootstrap()
          .group(acceptor, io)
          .channel(NioServerSocketChannel.class)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override protected void initChannel(SocketChannel client) {
              client.pipeline().addLast("frames", new PgFrameDecoder(settings.maxMessageBytes()));
              client.pipeline().addLast("protocol",
                  new PgConnectionHandler(settings, opener, backends, clients, schemas));
            }
          })
          .bind(new InetSocketAddress(settings.bind(), settings.port()))
          .syncUninterruptibly()
          .channel();
      return new PgListener(acceptor, io, channel, clients);
    } catch (RuntimeException e) {
      acceptor.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      io.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      throw new IllegalArgumentException("cannot listen for PostgreSQL clients on "
          + settings.bind() + ":" + settings.port() + ": " + e.getMessage(), e);
    }
  }

  /** The port it listens on, the free one it was given when asked for port 0. */
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** The connections open now, clients and cancel requests. */
  public int connections() {
    return clients.get();
  }

  /** Stops listening and closes every client's connection, whose sessions then roll back
   * and close. */
  @Override public void close() {
    channel.close().syncUninterruptibly();
    acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
