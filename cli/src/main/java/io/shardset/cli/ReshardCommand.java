package io.shardset.cli;

import io.shardset.cli.reshard.ApplyCommand;
import io.shardset.cli.reshard.PlanCommand;
import io.shardset.cli.reshard.ShowCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code shardset reshard}: its work is done by its subcommands. */
@Command(name = "reshard", mixinStandardHelpOptions = true,
    description = {
        "Adds and removes shards and moves or splits hash ranges of a ShardSet"
            + " model's consistent-hash tables, moving only the rows whose range changes shard.",
        "The chunk map lives in the model file, which apply rewrites atomically; running"
            + " ShardSet processes re-read it."},
    subcommands = {ShowCommand.class, PlanCommand.class, ApplyCommand.class})
public final class ReshardCommand implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a subcommand");
  }
}
