package io.shardset.session;

/** What holds a client session: a connection of ShardSet's own driver. */
public interface SessionOwner {
  /** The session of this connection. */
  ShardSession session();
}
