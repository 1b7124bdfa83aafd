package io.shardset.cli;

import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.ShardTable;
import io.shardset.cli.load.CsvLoader;
import io.shardset.cli.load.LoadOptions;
import io.shardset.cli.load.LoadResult;
import io.shardset.cli.load.ProgressReporter;
import io.shardset.cli.load.WriteMode;
import io.shardset.execution.ProgressMeters;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code shardset load}: writes the rows of CSV files to the shards their routing assigns. */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Loads CSV files into a table of a ShardSet model, each row to the shard the model's"
            + " routing assigns (to every shard for a duplicated table), in batches committed"
            + " shard by shard.",
        "Rows replace rows with the same primary key, so a load can be run again;"
            + " an empty unquoted field is NULL, a quoted empty field (\"\") an empty string."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:all rows loaded (bad rows skipped with --skip-bad)",
        "1:stopped at a bad row, or failed (model, file, shard)",
        "2:wrong command line"})
public final class LoadCommand implements Callable<Integer> {
  @Option(names = "--model", required = true, paramLabel = "FILE",
      description = "The model file (JSON).")
  private File model;

  @Option(names = "--schema", paramLabel = "NAME",
      description = "The ShardSet schema; default: the model's defaultSchema.")
  private String schema;

  @Option(names = "--table", required = true, paramLabel = "NAME",
      description = "The logical table to load.")
  private String table;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "CSV files, loaded in order.")
  private List<Path> files = new ArrayList<>();

  @Option(names = "--header", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Whether each file starts with a header naming every column, in any order"
          + " (default: ${DEFAULT-VALUE}). Without one, fields are in the table's column order.")
  private boolean header;

  @Option(names = "--delimiter", defaultValue = ",", paramLabel = "CHAR",
      description = "The field separator (default: '${DEFAULT-VALUE}'); \\t for a tab.")
  private String delimiter;

  @Option(names = "--batch-size", defaultValue = "1000", paramLabel = "N",
      description = "Rows per shard sent and committed at once (default: ${DEFAULT-VALUE}).")
  private int batchSize;

  @Option(names = "--skip-bad",
      description = "Skip bad rows (counted and listed) instead of stopping at the first.")
  private boolean skipBad;

  @Option(names = "--list-bad", defaultValue = "20", paramLabel = "N",
      description = "How many skipped bad rows the summary lists (default: ${DEFAULT-VALUE}).")
  private int listBad;

  @Option(names = "--truncate",
      description = "Empty the table on every shard first.")
  private boolean truncate;

  @Option(names = "--append",
      description = "Insert rows as they are, without upserting by primary key: loading a file"
          + " twice duplicates its rows. For tables without a primary key.")
  private boolean append;

  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  @Override public Integer call() throws Exception {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    final LoadOptions options = options();
    for (Path file : files) {
      if (!Files.isReadable(file)) {
        err.println("cannot read " + file);
        return 1;
      }
    }
    try (Connection connection = ShardSchemas.connect(model);
         ProgressMeters meters = ProgressMeters.of(
             ShardSetRuntime.get().execution().scanServices().metrics(), "load", table)) {
      final ShardTable shardTable = ShardSchemas.find(connection, schema).table(table);
      final ProgressReporter progress = progress(err).metered(meters);
      final LoadResult result = new CsvLoader(shardTable, options, System::nanoTime)
          .load(files, progress);
      result.summary().forEach(out::println);
      out.flush();
      return result.completed() ? 0 : 1;
    } catch (RuntimeException | SQLException e) {
      err.println("load failed: "
          + ModelSecrets.of(model.toPath(), null, null).redact(e.getMessage()));
      return 1;
    }
  }

  private LoadOptions options() {
    if (truncate && append) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--truncate and --append exclude each other");
    }
    final String separator = delimiter.equals("\\t") ? "\t" : delimiter;
    if (separator.length() != 1) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--delimiter must be one character: '" + delimiter + "'");
    }
    if (batchSize < 1 || listBad < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--batch-size must be positive and --list-bad not negative");
    }
    final WriteMode mode = truncate ? WriteMode.TRUNCATE
        : append ? WriteMode.APPEND : WriteMode.UPSERT;
    return new LoadOptions(header, separator.charAt(0), batchSize, skipBad, listBad, mode);
  }

  /** A bar on a terminal, a line every 5 s otherwise. */
  private ProgressReporter progress(PrintWriter err) {
    long total = 0;
    for (Path file : files) {
      total += file.toFile().length();
    }
    return System.console() != null
        ? ProgressReporter.bar(err, total, System::nanoTime)
        : ProgressReporter.lines(err, total, System::nanoTime, 5_000_000_000L);
  }
}
