package io.shardset.cli.catalog;

import io.shardset.catalog.ModelCatalog;
import io.shardset.model.CatalogSpec;

import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.sql.SQLException;

/** {@code shardset catalog show}: the versions a catalog keeps of each schema. */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Lists the versions a catalog database keeps of each schema's model.")
public final class CatalogShowCommand extends CatalogTask {
  @Override String failure() {
    return "cannot read the catalog: ";
  }

  @Override int work(ModelCatalog store, CatalogSpec settings, PrintWriter out,
      PrintWriter err) throws SQLException {
    out.println(settings + ":");
    for (ModelCatalog.Version version : store.history()) {
      out.println("  " + version.schema() + " version " + version.number() + "  "
          + version.createdAt() + "  " + version.createdBy());
    }
    return 0;
  }
}
