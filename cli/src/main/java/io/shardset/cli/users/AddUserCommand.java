package io.shardset.cli.users;

import io.shardset.cli.security.PasswordHash;
import io.shardset.cli.security.ScramSecret;
import io.shardset.cli.security.UsersFile;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code shardset users add NAME}: writes a user's line with a PBKDF2-hashed password into a
 * users file, replacing the user's line if there is one. The password is read from the
 * terminal without echo (twice), or from the first line of standard input when that is not a
 * terminal; never from the command line, which other users of the machine can read.
 */
@Command(name = "add", mixinStandardHelpOptions = true,
    description = "Adds a user with a hashed password to a users file, or replaces the"
        + " user's line. The password is asked for on the terminal, or read from the first"
        + " line of standard input.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:written", "1:not written (file, name or password)",
        "2:wrong command line"})
public final class AddUserCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "NAME", description = "The user's name.")
  private String name;

  @Option(names = "--file", required = true, paramLabel = "FILE",
      description = "The users file (created if missing).")
  private Path file;

  @Option(names = "--role", paramLabel = "ROLE", split = ",", defaultValue = "users",
      description = "The user's roles (default: ${DEFAULT-VALUE}); 'write' lets the user"
          + " write.")
  private List<String> roles = new ArrayList<>();

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final char[] password;
    try {
      password = password();
    } catch (IOException | IllegalArgumentException e) {
      err.println("user not written: " + e.getMessage());
      err.flush();
      return 1;
    }
    try {
      UsersFile.put(file, name, PasswordHash.of(password), ScramSecret.of(password), roles);
    } catch (IOException | IllegalArgumentException e) {
      err.println("user not written: " + e.getMessage());
      err.flush();
      return 1;
    } finally {
      Arrays.fill(password, '\0');
    }
    out.println("user '" + name + "' written to " + file + " with roles " + roles
        + ", a hashed password and its SCRAM-SHA-256 verifier");
    out.flush();
    return 0;
  }

  private static char[] password() throws IOException {
    final Console console = System.console();
    if (console != null) {
      final char[] first = console.readPassword("password: ");
      final char[] second = console.readPassword("password again: ");
      if (first == null || !Arrays.equals(first, second)) {
        throw new IllegalArgumentException("the passwords differ");
      }
      return checked(first);
    }
    final String line = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8)).readLine();
    if (line == null) {
      throw new IllegalArgumentException("no password on standard input");
    }
    return checked(line.toCharArray());
  }

  private static char[] checked(char[] password) {
    if (password.length == 0) {
      throw new IllegalArgumentException("the password is empty");
    }
    return password;
  }
}
