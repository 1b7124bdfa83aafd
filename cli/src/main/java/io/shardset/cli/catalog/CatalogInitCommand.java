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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * {@code shardset catalog init}: puts the ShardSet schemas of a model file into a catalog as
 * their first versions, and can write the small model file that points at them.
 */
@Command(name = "init", mixinStandardHelpOptions = true,
    description = "Puts the ShardSet schemas of a model file into a catalog database (its"
        + " table is created if missing) as their first versions. Passwords stay out of the"
        + " catalog: the model must give them as ${env:NAME}.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:written", "1:not written (model, catalog or a schema already there)",
        "2:wrong command line"})
public final class CatalogInitCommand extends CatalogTask {
  @Option(names = "--model", required = true, paramLabel = "FILE",
      description = "The model file to import (JSON).")
  private Path model;

  @Option(names = "--write-pointer", paramLabel = "FILE",
      description = "Also write a model file that points at the catalog, for sqlline, the"
          + " server, the loader and jdbc:shardset:model= (its catalog password, if any,"
          + " from the environment variable " + ModelDocuments.PASSWORD_VARIABLE + ").")
  private Path pointer;

  @Override String failure() {
    return "not written: ";
  }

  @Override int work(ModelCatalog store, CatalogSpec settings, PrintWriter out,
      PrintWriter err) throws IOException, SQLException {
    final List<ModelDocuments.SchemaOperand> schemas = ModelDocuments.shardSetSchemas(
        Files.readString(model, StandardCharsets.UTF_8), "model file " + model);
    store.create();
    for (ModelDocuments.SchemaOperand schema : schemas) {
      final Optional<ModelCatalog.Version> existing = store.current(schema.schema());
      if (existing.isPresent()) {
        err.println(failure() + "the " + settings + " holds schema '" + schema.schema()
            + "' already (version " + existing.get().number() + ", "
            + existing.get().createdBy() + ")");
        return 1;
      }
    }
    final ModelFile file = ModelFile.read(model);
    for (ModelDocuments.SchemaOperand schema : schemas) {
      // The sequences first: a process that opens the new version takes blocks after theirs.
      if (SequenceCarry.hasSequences(file, schema.schema())) {
        final ShardSetModel parsed = file.model(schema.schema());
        SequenceCarry.carry(parsed,
            TransactionSettings.of(schema.schema(), parsed.transactions(), model).log(),
            TransactionSettings.of(schema.schema(), parsed.transactions(), null, null,
                settings).log(), out);
      }
      final ModelCatalog.Version version = store.publish(schema.schema(), 0,
          schema.operand(), "shardset catalog init --model " + model.getFileName());
      out.println("schema '" + schema.schema() + "' written to the " + settings
          + " as version " + version.number());
    }
    if (pointer != null) {
      AtomicFiles.replace(pointer, ModelDocuments.pointerFile(schemas.get(0).schema(),
          settings));
      out.println("model file " + pointer + " points at schema '" + schemas.get(0).schema()
          + "' of the catalog");
    }
    return 0;
  }
}
