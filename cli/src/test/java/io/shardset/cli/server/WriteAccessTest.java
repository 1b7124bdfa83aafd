package io.shardset.cli.server;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who may write through a server, by its settings and the user's roles. */
class WriteAccessTest {
  private static final WriteAccess AUTHENTICATED = new WriteAccess(false, true);

  private static boolean mayWrite(WriteAccess access, String... roles) {
    return access.mayWrite(Set.of(roles)::contains);
  }

  @Test void withUsersOnlyTheWriteRoleWrites() {
    assertTrue(mayWrite(AUTHENTICATED, "users", "write"));
    assertFalse(mayWrite(AUTHENTICATED, "users", "read"));
    assertFalse(mayWrite(AUTHENTICATED, "users"));
    assertFalse(mayWrite(AUTHENTICATED));
    // The stricter of two contradicting grants.
    assertFalse(mayWrite(AUTHENTICATED, "users", "read", "write"));
  }

  @Test void withoutUsersEveryClientWrites() {
    assertTrue(mayWrite(new WriteAccess(false, false)));
  }

  @Test void aReadOnlyServerLetsNobodyWrite() {
    assertFalse(mayWrite(new WriteAccess(true, true), "users", "write"));
    assertFalse(mayWrite(new WriteAccess(true, false)));
  }

  @Test void theRefusalSaysWhy() {
    assertEquals("user rita has no role 'write' (or has the role 'read')",
        AUTHENTICATED.whyReadOnly("rita"));
    assertEquals("the server is read-only", new WriteAccess(true, true).whyReadOnly("alice"));
  }
}
