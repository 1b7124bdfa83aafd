package io.shardset.cli;

import io.shardset.util.SuppressForbidden;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code shardset} command; its work is done by its subcommands. */
@Command(name = "shardset", mixinStandardHelpOptions = true,
    description = "Tools for ShardSet models: one logical SQL schema over JDBC shards.",
    subcommands = {LoadCommand.class, ServerCommand.class, ReshardCommand.class,
        UsersCommand.class, CommandLine.HelpCommand.class})
public final class ShardSetCli implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @SuppressForbidden(reason = "the command line's exit code is the process's")
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line with every subcommand, as {@link #main} runs it. */
  public static CommandLine commandLine() {
    return new CommandLine(new ShardSetCli());
  }

  @Override public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a subcommand");
  }
}
