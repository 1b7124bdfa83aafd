package io.shardset.cli.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A users file's hashed, weak and clear-text passwords, its errors (which name the line and
 * never a password), and the guard's memory of failures.
 */
class UsersFileTest {
  @TempDir Path folder;

  @Test void hashedWeakAndClearPasswordsAreCheckedAndTheWeakOnesNamed() throws Exception {
    final Path file = folder.resolve("users");
    Files.writeString(file, "# users\n\nbob: plain-1,users\n"
        + "carl=OBF:1v2j1uum1xtv1zej1zer1xtn1uvk1v1v,users\n");
    UsersFile.put(file, "alice", PasswordHash.of("hashed-1".toCharArray()), List.of("users",
        "write"));
    final UsersFile users = UsersFile.read(file);
    assertTrue(users.user("alice").matches("hashed-1".toCharArray()));
    assertFalse(users.user("alice").matches("hashed-2".toCharArray()));
    assertEquals(List.of("users", "write"), users.user("alice").roles());
    assertTrue(users.user("bob").matches("plain-1".toCharArray()));
    assertFalse(users.user("bob").matches("plain-2".toCharArray()));
    assertTrue(users.user("carl").matches("password".toCharArray()));
    assertNull(users.user("dora"));
    assertEquals(List.of("the users file " + file + " line 3 stores the password of user 'bob'"
        + " in clear text; replace it with 'shardset users add bob'",
        "the users file " + file + " line 4 stores the password of user 'carl' with a weak"
        + " hash; replace it with 'shardset users add carl'"), users.warnings());
    assertFalse(users.user("bob").toString().contains("plain-1"));
  }

  /**
   * A written user carries the SCRAM-SHA-256 verifier of the password beside its hash, not as a
   * role; a readable password gets one when read; a hash alone has none; and a verifier that is
   * not of the form names the line, not the verifier.
   */
  @Test void scramVerifiersAreWrittenReadAndDerivedFromReadablePasswords() throws Exception {
    final Path file = folder.resolve("users");
    Files.writeString(file, "bob: plain-1,users\ncarl=OBF:1v2j1uum1xtv1zej1zer1xtn1uvk1v1v\n");
    final ScramSecret written = ScramSecret.of("hashed-1".toCharArray());
    UsersFile.put(file, "alice", PasswordHash.of("hashed-1".toCharArray()), written,
        List.of("users", "write"));
    UsersFile.put(file, "dora", PasswordHash.of("hashed-2".toCharArray()), List.of("users"));
    final String line = Files.readAllLines(file).get(2);
    assertTrue(line.matches("alice: PBKDF2-SHA512:[^,]+,SCRAM-SHA-256\\$4096:[^,]+,users,write"),
        line);
    final UsersFile users = UsersFile.read(file);
    final UsersFile.User alice = users.user("alice");
    assertEquals(List.of("users", "write"), alice.roles());
    assertEquals(written.stored(), alice.scram().stored());
    assertTrue(alice.matches("hashed-1".toCharArray()));
    assertNull(users.user("dora").scram());
    // Derived from the readable passwords: the proof of the right password checks out.
    for (String[] user : new String[][] {{"bob", "plain-1"}, {"carl", "password"}}) {
      final ScramSecret derived = users.user(user[0]).scram();
      final ScramSecret expected =
          ScramSecret.of(user[1].toCharArray(), derived.salt(), derived.iterations());
      assertEquals(expected.stored(), derived.stored(), user[0]);
    }
    assertFalse(alice.toString().contains("SCRAM"));

    Files.writeString(file, "erin: PBKDF2-SHA512:1000:c2FsdA==:aGFzaA==,SCRAM-SHA-256$9:eA==$eA==:"
        + "eA==,users\n");
    final IllegalArgumentException broken = assertThrows(IllegalArgumentException.class,
        () -> UsersFile.read(file));
    assertEquals("the users file " + file + " line 1 gives user 'erin' a SCRAM-SHA-256$"
        + " verifier whose keys are not 32 bytes each", broken.getMessage());
  }

  @Test void brokenLinesAreNamedWithoutTheirPasswords() throws Exception {
    final Path file = folder.resolve("users");
    Files.writeString(file, "alice: PBKDF2-SHA512:1000:not base64!:xyz,users\n");
    final IllegalArgumentException hash = assertThrows(IllegalArgumentException.class,
        () -> UsersFile.read(file));
    assertEquals("the users file " + file + " line 1 gives user 'alice' not a PBKDF2-SHA512:"
        + "ITERATIONS:SALT:HASH password hash", hash.getMessage());
    Files.writeString(file, "alice: secret-9,users\nalice: secret-8,users\n");
    final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> UsersFile.read(file));
    assertEquals("the users file " + file + " line 2 names user 'alice' a second time",
        twice.getMessage());
    Files.writeString(file, "just-a-name\n");
    assertEquals("the users file " + file + " line 1 is not a 'name: password,role...' line",
        assertThrows(IllegalArgumentException.class, () -> UsersFile.read(file))
            .getMessage());
  }

  @Test void theGuardForgetsFailuresAnHourAfterTheLast() throws Exception {
    final Instant[] now = {Instant.parse("2026-12-05T10:00:00Z")};
    final Clock clock = new Clock() {
      @Override public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override public Instant instant() {
        return now[0];
      }
    };
    final List<Duration> waits = new ArrayList<>();
    final GuessingGuard guard = new GuessingGuard(GuessingGuard.Policy.DEFAULT, waits::add,
        clock);
    for (int i = 0; i < 7; i++) {
      guard.failed("10.0.0.1", "alice");
    }
    assertEquals(Duration.ofMillis(500), guard.awaitTurn("10.0.0.1"));
    assertEquals(Duration.ZERO, guard.awaitTurn("10.0.0.2"));
    now[0] = now[0].plus(Duration.ofMinutes(61));
    assertEquals(Duration.ZERO, guard.awaitTurn("10.0.0.1"));
    assertEquals(0, guard.failuresFor("alice"));
    assertEquals(List.of(Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofMillis(500)), waits);
  }
}
