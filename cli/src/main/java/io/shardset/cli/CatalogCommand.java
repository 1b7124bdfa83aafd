package io.shardset.cli;

import io.shardset.cli.catalog.CatalogExportCommand;
import io.shardset.cli.catalog.CatalogInitCommand;
import io.shardset.cli.catalog.CatalogShowCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code shardset catalog}: its work is done by its subcommands. */
@Command(name = "catalog", mixinStandardHelpOptions = true,
    description = "Keeps models in a catalog database: init imports a model file, export"
        + " writes one back, show lists the versions.",
    subcommands = {CatalogInitCommand.class, CatalogExportCommand.class,
        CatalogShowCommand.class})
public final class CatalogCommand implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a subcommand");
  }
}
