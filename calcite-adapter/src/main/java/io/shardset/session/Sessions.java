package io.shardset.session;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * Finds the session of the connection a statement runs on (a statement's context names its
 * connection): a connection of ShardSet's own driver holds its own ({@link SessionOwner}); any
 * other connection (Calcite's own {@code jdbc:calcite:}, whose class is not ShardSet's) gets
 * one here, kept while the connection is reachable. Such a session stays in autocommit mode:
 * Calcite's connection refuses commit and rollback.
 *
 * <p>Generated code gets this object as a constant from the table it writes or scans; it is
 * the process runtime's, not static.
 */
public final class Sessions {
  /** Sessions of connections that are not ShardSet's, by connection identity. */
  private final Map<Object, ShardSession> others = new WeakHashMap<>();

  /** A registry with no session of its own yet. */
  public Sessions() {
  }

  /**
   * The session of a connection, by the object that stands for it in a statement's context
   * (Calcite's query provider); a session of its own, in autocommit mode, when there is none.
   */
  public ShardSession of(@Nullable Object connection) {
    if (connection instanceof SessionOwner owner) {
      return owner.session();
    }
    if (connection == null) {
      // A statement of no connection: a session of its own, in autocommit mode.
      return new ShardSession("");
    }
    synchronized (others) {
      return others.computeIfAbsent(connection, c -> new ShardSession(""));
    }
  }
}
