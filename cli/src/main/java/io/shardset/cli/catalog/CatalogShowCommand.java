package io.shardset.cli.catalog;

import io.shardset.catalog.ModelCatalog;
import io.shardset.catalog.ProcessRegistry;
import io.shardset.model.CatalogSpec;

import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code shardset catalog show}: the versions a catalog keeps of each schema, and the processes
 * that serve each schema with the version they run.
 */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Lists the versions a catalog database keeps of each schema's model, and the"
        + " processes serving each schema: the version each runs and has drained, and when"
        + " it last renewed its lease.")
public final class CatalogShowCommand extends CatalogTask {
  @Override String failure() {
    return "cannot read the catalog: ";
  }

  @Override int work(ModelCatalog store, CatalogSpec settings, PrintWriter out,
      PrintWriter err) throws SQLException {
    out.println(settings + ":");
    final Set<String> schemas = new LinkedHashSet<>();
    for (ModelCatalog.Version version : store.history()) {
      schemas.add(version.schema());
      out.println("  " + version.schema() + " version " + version.number() + "  "
          + version.createdAt() + "  " + version.createdBy());
    }
    store.create();
    final ProcessRegistry registry = ProcessRegistry.of(store.database());
    for (String schema : schemas) {
      final List<ProcessRegistry.Process> processes = registry.processes(schema);
      out.println("processes serving " + schema + ":" + (processes.isEmpty() ? " none" : ""));
      for (ProcessRegistry.Process process : processes) {
        out.println("  " + process.description() + "  runs version " + process.runsVersion()
            + ", drained " + process.drainedVersion() + ", lease renewed "
            + process.sinceHeartbeatMillis() + " ms ago"
            + (process.expired() ? " (expired: excluded by the next move)" : ""));
      }
    }
    return 0;
  }
}
