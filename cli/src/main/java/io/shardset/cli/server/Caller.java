package io.shardset.cli.server;

import io.shardset.model.ScatterLimit;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The remote user whose request a server thread serves, and whether that user may write: set
 * by {@link WriteAccessHandler} around each request, read by the server's {@code Meta}, which
 * Avatica calls on the same thread.
 *
 * @param user the authenticated user's name, or a placeholder without authentication
 * @param address the client's address, as the request came from it
 * @param mayWrite whether the user may write
 * @param whyNot why the user may not write, for the refusal's message; null if they may
 * @param refusedByRole whether the user may not write for want of a role, rather than
 *     because nobody writes through the server
 * @param scatter the scatter limit of the user's connections, from a role, or null for the
 *     model's
 * @param seesAllStatements whether the user sees every user's running statements and may
 *     cancel them (an operator, or anyone without authentication), or only their own
 */
record Caller(String user, String address, boolean mayWrite, @Nullable String whyNot,
    boolean refusedByRole,
    @Nullable ScatterLimit scatter, boolean seesAllStatements) {
  /** Who a thread serves when no request set it: nobody, who may not write. */
  static final Caller NOBODY = new Caller("(none)", "(none)", false,
      "no remote user is known", false, null, false);

  Caller {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(address, "address");
  }

  /**
   * The caller a user with these roles is on a server with these rules, whichever protocol
   * the user came in by.
   *
   * @param hasRole whether the user has a role of the users file
   */
  static Caller of(String user, String address, Predicate<String> hasRole, WriteAccess access,
      List<RoleScatter> roleScatter, List<String> operatorRoles) {
    final boolean mayWrite = access.mayWrite(hasRole);
    return new Caller(user, address, mayWrite, mayWrite ? null : access.whyReadOnly(user),
        !mayWrite && !access.serverReadOnly(), RoleScatter.of(roleScatter, hasRole),
        !access.authenticated() || operatorRoles.stream().anyMatch(hasRole));
  }

  /** The callers of the requests each thread serves now. */
  static final class Current {
    private final ThreadLocal<Caller> caller = new ThreadLocal<>();

    /** The caller of the request this thread serves; {@link #NOBODY} outside a request. */
    Caller get() {
      final Caller current = caller.get();
      return current == null ? NOBODY : current;
    }

    void set(Caller current) {
      caller.set(Objects.requireNonNull(current, "current"));
    }

    void clear() {
      caller.remove();
    }
  }
}
