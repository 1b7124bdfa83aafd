package io.shardset.cli.catalog;

import io.shardset.catalog.ModelCatalog;
import io.shardset.catalog.ModelDocuments;
import io.shardset.model.CatalogSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.reshard.ModelFile;
import io.shardset.transaction.TransactionSettings;
import io.shardset.util.AtomicFiles;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;

/** {@code shardset catalog export}: writes a schema's model from a catalog as a model file. */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = "Writes a schema's model, its newest version or the one named, from a"
        + " catalog database as a model file.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:written", "1:not written (catalog, schema or version)",
        "2:wrong command line"})
public final class CatalogExportCommand extends CatalogTask {
  @Option(names = "--schema", required = true, paramLabel = "NAME",
      description = "The schema.")
  private String schema;

  @Option(names = "--version", paramLabel = "N",
      description = "The version (default: the newest).")
  private Long version;

  @Option(names = "--output", paramLabel = "FILE",
      description = "The model file to write (default: standard output).")
  private Path output;

  @Override String failure() {
    return "not written: ";
  }

  @Override int work(ModelCatalog store, CatalogSpec settings, PrintWriter out,
      PrintWriter err) throws IOException, SQLException {
    final Optional<ModelCatalog.Version> found = version == null
        ? store.current(schema) : store.version(schema, version);
    if (found.isEmpty()) {
      err.println(failure() + "the " + settings + " holds no "
          + (version == null ? "" : "version " + version + " of ") + "schema '" + schema
          + "'");
      return 1;
    }
    final String text = ModelDocuments.modelFile(found.get());
    if (output == null) {
      out.print(text);
    } else {
      AtomicFiles.replace(output, text);
      out.println("version " + found.get().number() + " of schema '" + schema
          + "' written to " + output);
      // The file's processes take sequence blocks from its decision log's database.
      final ModelFile file = ModelFile.read(output);
      if (SequenceCarry.hasSequences(file, schema)) {
        final ShardSetModel model = file.model(schema);
        SequenceCarry.carry(model,
            TransactionSettings.of(schema, model.transactions(), null, null, settings).log(),
            TransactionSettings.of(schema, model.transactions(), output).log(), out);
      }
    }
    return 0;
  }
}
