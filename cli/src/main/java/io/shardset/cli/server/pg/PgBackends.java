package io.shardset.cli.server.pg;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sessions of a listener by their backend key (a process id and a secret), which a
 * CancelRequest names: PostgreSQL's clients cancel a statement by opening a second connection
 * and sending the key of the session it runs in. A request with a wrong secret cancels
 * nothing and is told nothing.
 */
final class PgBackends {
  /** A session's key and the session. */
  private record Backend(int secret, PgSession session) {
  }

  private final SecureRandom random;
  private final AtomicInteger nextId;
  private final Map<Integer, Backend> sessions = new ConcurrentHashMap<>();

  PgBackends(SecureRandom random) {
    this.random = random;
    this.nextId = new AtomicInteger(1_000 + random.nextInt(1_000_000));
  }

  /** A new process id, which no session has. */
  int nextProcessId() {
    return nextId.getAndIncrement() & Integer.MAX_VALUE;
  }

  /** Registers a session, and returns its secret. */
  int register(int processId, PgSession session) {
    final int secret = random.nextInt();
    sessions.put(processId, new Backend(secret, session));
    return secret;
  }

  void remove(int processId) {
    sessions.remove(processId);
  }

  /** Cancels what the session of the key runs, if the key is one. */
  void cancel(int processId, int secret) {
    final Backend backend = sessions.get(processId);
    if (backend != null && backend.secret() == secret) {
      backend.session().cancel();
    }
  }

  int size() {
    return sessions.size();
  }
}
