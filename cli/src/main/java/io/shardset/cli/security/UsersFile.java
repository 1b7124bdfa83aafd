package io.shardset.cli.security;

import io.shardset.util.AtomicFiles;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jetty.util.security.Password;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The users of a server: a file of {@code name: password,role...} lines, as Jetty's realm
 * files, where the password is a {@link PasswordHash} ({@code PBKDF2-SHA512:...}, what
 * {@code shardset users add} writes), Jetty's weak {@code MD5:}, {@code CRYPT:} or
 * {@code OBF:} forms, or clear text. Among the roles, a field that starts with
 * {@code SCRAM-SHA-256$} is the password's {@link ScramSecret} (what the PostgreSQL protocol's
 * clients authenticate with; {@code shardset users add} writes it too); a password in clear
 * text or {@code OBF:} gets one derived when the file is read. Lines starting with {@code #}
 * or {@code !} are comments. Reading it never repeats a password: a warning names the line of
 * each user whose password is not hashed.
 */
public final class UsersFile {
  private final Map<String, User> users;
  private final List<String> warnings;

  private UsersFile(Map<String, User> users, List<String> warnings) {
    this.users = users;
    this.warnings = warnings;
  }

  /**
   * A user: their name, stored password and roles, and the password's SCRAM-SHA-256 verifier
   * where the file has one or the password is readable.
   */
  public record User(String name, String stored, List<String> roles,
      @Nullable ScramSecret scram) {
    public User {
      roles = List.copyOf(roles);
    }

    /** A user without SCRAM verifier. */
    public User(String name, String stored, List<String> roles) {
      this(name, stored, roles, null);
    }

    /** Whether the password is this user's. */
    public boolean matches(char[] password) {
      if (stored.startsWith(PasswordHash.PREFIX)) {
        return PasswordHash.parse(stored).matches(password);
      }
      if (weak(stored)) {
        return Credential.getCredential(stored).check(new String(password));
      }
      return MessageDigest.isEqual(stored.getBytes(StandardCharsets.UTF_8),
          new String(password).getBytes(StandardCharsets.UTF_8));
    }

    /** Keeps the password out of logs. */
    @Override public String toString() {
      return "User[" + name + ", " + roles + "]";
    }
  }

  /**
   * Reads a users file.
   *
   * @throws IllegalArgumentException naming the file and line of what cannot be read, never
   *     a password
   */
  public static UsersFile read(Path file) {
    final List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the users file " + file, e);
    }
    final Map<String, User> users = new LinkedHashMap<>();
    final List<String> warnings = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      final String line = lines.get(i).trim();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith("!")) {
        continue;
      }
      final String where = file + " line " + (i + 1);
      final int colon = separator(line);
      if (colon <= 0) {
        throw new IllegalArgumentException("the users file " + where + " is not a"
            + " 'name: password,role...' line");
      }
      final String name = line.substring(0, colon).trim();
      final List<String> fields = new ArrayList<>(
          Arrays.asList(line.substring(colon + 1).split(",")));
      final String stored = fields.remove(0).trim();
      if (stored.isEmpty()) {
        throw new IllegalArgumentException("the users file " + where + " gives user '" + name
            + "' no password");
      }
      if (stored.startsWith(PasswordHash.PREFIX)) {
        try {
          PasswordHash.parse(stored);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("the users file " + where + " gives user '"
              + name + "' " + e.getMessage(), e);
        }
      } else if (weak(stored)) {
        warnings.add("the users file " + where + " stores the password of user '" + name + "'"
            + " with a weak hash; replace it with 'shardset users add " + name + "'");
      } else {
        warnings.add("the users file " + where + " stores the password of user '" + name + "'"
            + " in clear text; replace it with 'shardset users add " + name + "'");
      }
      final List<String> roles = new ArrayList<>();
      ScramSecret scram = null;
      for (String field : fields) {
        final String role = field.trim();
        if (role.startsWith(ScramSecret.PREFIX)) {
          try {
            scram = ScramSecret.parse(role);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the users file " + where + " gives user '"
                + name + "' " + e.getMessage(), e);
          }
        } else if (!role.isEmpty()) {
          roles.add(role);
        }
      }
      if (scram == null) {
        scram = readable(stored);
      }
      if (users.put(name, new User(name, stored, roles, scram)) != null) {
        throw new IllegalArgumentException("the users file " + where + " names user '" + name
            + "' a second time");
      }
    }
    return new UsersFile(users, warnings);
  }

  /** The user of a name, or null. */
  public @Nullable User user(String name) {
    return users.get(name);
  }

  /** What a careful operator should change, one line each. */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * Writes a user's line with a hashed password into a users file, in place of the user's
   * line if there is one, else at its end; creates the file, readable by its owner only, if
   * there is none. The file is replaced whole ({@link AtomicFiles}), keeping its permissions.
   */
  public static void put(Path file, String name, PasswordHash password, List<String> roles)
      throws IOException {
    put(file, name, password, null, roles);
  }

  /**
   * Writes a user's line with a hashed password and its SCRAM-SHA-256 verifier, as
   * {@link #put(Path, String, PasswordHash, List)} does.
   */
  public static void put(Path file, String name, PasswordHash password,
      @Nullable ScramSecret scram, List<String> roles) throws IOException {
    if (name.isEmpty() || name.contains(":") || name.contains("=") || name.contains(",")
        || !name.equals(name.trim())) {
      throw new IllegalArgumentException("a user name has no ':', '=', ',' or surrounding"
          + " spaces: '" + name + "'");
    }
    final String entry = name + ": " + password.stored()
        + (scram == null ? "" : "," + scram.stored())
        + (roles.isEmpty() ? "" : "," + String.join(",", roles));
    final List<String> lines = Files.exists(file)
        ? new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8)) : new ArrayList<>();
    boolean replaced = false;
    for (int i = 0; i < lines.size(); i++) {
      final String line = lines.get(i).trim();
      final int colon = separator(line);
      if (!line.startsWith("#") && colon > 0 && line.substring(0, colon).trim().equals(name)) {
        lines.set(i, entry);
        replaced = true;
      }
    }
    if (!replaced) {
      lines.add(entry);
    }
    AtomicFiles.replace(file, String.join("\n", lines) + "\n");
  }

  /**
   * The verifier of a password the file holds readable (clear text or Jetty's reversible
   * {@code OBF:}), with a new salt; null for a hash, from which none can be derived.
   */
  private static @Nullable ScramSecret readable(String stored) {
    if (stored.startsWith(PasswordHash.PREFIX) || stored.startsWith("MD5:")
        || stored.startsWith("CRYPT:")) {
      return null;
    }
    final String password = stored.startsWith("OBF:") ? Password.deobfuscate(stored) : stored;
    return ScramSecret.of(password.toCharArray());
  }

  private static boolean weak(String stored) {
    return stored.startsWith("MD5:") || stored.startsWith("CRYPT:") || stored.startsWith("OBF:");
  }

  /** Where a line's name ends: its first ':' or '=', as in a properties file. */
  private static int separator(String line) {
    final int colon = line.indexOf(':');
    final int equals = line.indexOf('=');
    if (colon < 0) {
      return equals;
    }
    return equals < 0 ? colon : Math.min(colon, equals);
  }
}
