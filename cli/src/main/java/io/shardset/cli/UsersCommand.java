package io.shardset.cli;

import io.shardset.cli.users.AddUserCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code shardset users}: its work is done by its subcommands. */
@Command(name = "users", mixinStandardHelpOptions = true,
    description = "Manages the users file of 'shardset server --users': names, hashed"
        + " passwords and roles.",
    subcommands = {AddUserCommand.class})
public final class UsersCommand implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a subcommand");
  }
}
