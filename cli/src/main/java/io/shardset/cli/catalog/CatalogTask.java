package io.shardset.cli.catalog;

import io.shardset.catalog.ModelCatalog;
import io.shardset.model.CatalogSpec;

import picocli.CommandLine;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.concurrent.Callable;

/**
 * A {@code shardset catalog} subcommand: the catalog's options, and one way of reporting a
 * failure (a line on standard error, exit code 1).
 */
abstract class CatalogTask implements Callable<Integer> {
  @Mixin
  private CatalogOptions catalog;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  /** What a failure's line begins with. */
  abstract String failure();

  /** Does the work on the catalog; returns the exit code. */
  abstract int work(ModelCatalog store, CatalogSpec settings, PrintWriter out, PrintWriter err)
      throws IOException, SQLException;

  @Override public final Integer call() {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    try {
      final CatalogSpec settings = catalog.spec();
      return work(ModelCatalog.of(settings), settings, out, err);
    } catch (IOException | SQLException | IllegalArgumentException e) {
      err.println(failure() + e.getMessage());
      return 1;
    } finally {
      out.flush();
      err.flush();
    }
  }
}
