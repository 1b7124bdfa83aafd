package io.shardset.cli;

import io.shardset.calcite.jdbc.ShardSetVersion;
import io.shardset.util.SuppressForbidden;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code shardset} command; its work is done by its subcommands. */
@Command(name = "shardset", mixinStandardHelpOptions = true,
    versionProvider = ShardSetCli.Version.class,
    description = "Tools for ShardSet models: one logical SQL schema over JDBC shards.",
    subcommands = {LoadCommand.class, ServerCommand.class, ReshardCommand.class,
        UsersCommand.class, CatalogCommand.class, CommandLine.HelpCommand.class})
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

  /** What {@code shardset --version} prints: ShardSet's version and the versions it brings. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override public String[] getVersion() {
      final String version = "ShardSet " + ShardSetVersion.VERSION + " (Calcite "
          + ShardSetVersion.CALCITE_VERSION + ", Avatica " + ShardSetVersion.AVATICA_VERSION
          + ", Java " + Runtime.version() + ")";
      return new String[] {version};
    }
  }
}
