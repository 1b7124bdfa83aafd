package io.shardset.cli.reshard;

import io.shardset.reshard.ModelFile;
import io.shardset.reshard.ReshardPlan;
import io.shardset.reshard.ReshardPlanner;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code shardset reshard plan}: what an operation would move, counted; changes nothing. */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Prints the hash ranges an operation moves, the rows that move per shard"
            + " pair (counted on the shards), the fraction of all rows that moves, and what"
            + " hash % N placement would move instead. Changes nothing."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:planned",
        "1:the operation is impossible, or a shard failed",
        "2:wrong command line"})
public final class PlanCommand implements Callable<Integer> {
  @Mixin
  private ModelOptions model;

  @Mixin
  private OperationArgs operation;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    if (!operation.present()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "Missing an operation");
    }
    try {
      final ModelFile file = model.read();
      final String schema = model.schema(file);
      final ReshardPlan plan =
          ReshardPlanner.plan(file.model(schema), operation.operation(spec.commandLine()));
      PlanCount.of(file, plan).lines().forEach(out::println);
      out.flush();
      return 0;
    } catch (CommandLine.ParameterException e) {
      throw e;
    } catch (RuntimeException e) {
      err.println("plan failed: " + operation.secrets(model).redact(e.getMessage()));
      return 1;
    }
  }
}
