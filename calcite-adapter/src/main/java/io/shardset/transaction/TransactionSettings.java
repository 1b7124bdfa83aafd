package io.shardset.transaction;

import io.shardset.model.CatalogSpec;
import io.shardset.model.TransactionsSpec;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a coordinator decides the transactions of one schema.
 *
 * @param scope the schema's name: the decision records it writes are its own
 * @param log where the decision log lives; null when there is none, and transactions across
 *     shards cannot commit
 * @param noLog why there is no log, for the error a transaction across shards fails with;
 *     null when there is one
 * @param bestEffort whether a transaction across shards of which one has no two-phase commit
 *     commits shard by shard (not atomic) rather than failing
 * @param recoveryInterval how often the shards are checked for transactions left in doubt
 * @param deadlockCheck how often the shards' lock waits are read for deadlocks across shards
 *     while two or more transactions hold shards; zero for never
 */
public record TransactionSettings(String scope, @Nullable LogDatabase log,
    @Nullable String noLog, boolean bestEffort, Duration recoveryInterval,
    Duration deadlockCheck) {
  private static final Pattern EXTENSION = Pattern.compile("\\.[^.]*$");
  private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9_-]");

  public TransactionSettings {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(recoveryInterval, "recoveryInterval");
    if (log == null && noLog == null) {
      throw new IllegalArgumentException("say why there is no decision log");
    }
    if (recoveryInterval.isNegative() || recoveryInterval.isZero()) {
      throw new IllegalArgumentException("recoveryInterval must be positive");
    }
    Objects.requireNonNull(deadlockCheck, "deadlockCheck");
    if (deadlockCheck.isNegative()) {
      throw new IllegalArgumentException("deadlockCheck must not be negative");
    }
  }

  /** Settings with the default deadlock check. */
  public TransactionSettings(String scope, @Nullable LogDatabase log, @Nullable String noLog,
      boolean bestEffort, Duration recoveryInterval) {
    this(scope, log, noLog, bestEffort, recoveryInterval,
        Duration.ofMillis(TransactionsSpec.DEFAULT_DEADLOCK_CHECK_MILLIS));
  }

  /** Settings with no decision log: transactions across shards fail, naming the reason. */
  public static TransactionSettings withoutLog(String scope, String reason) {
    return new TransactionSettings(scope, null, reason, false,
        Duration.ofSeconds(TransactionsSpec.DEFAULT_RECOVERY_INTERVAL_SECONDS));
  }

  /**
   * A schema's settings as its model says. The log is the model's {@code log}: a JDBC URL, or a
   * directory (relative to the model file's folder) holding an H2 database
   * {@code <schema>.transactions}; without one, the H2 database
   * {@code <model file name>.<schema>.transactions} next to the model file.
   *
   * @param modelFile the model file, or null when the model was not read from one
   */
  public static TransactionSettings of(String schema, TransactionsSpec spec,
      @Nullable Path modelFile) {
    return of(schema, spec, modelFile, null);
  }

  /**
   * A schema's settings as its model says, as {@link #of(String, TransactionsSpec, Path)}
   * gives them, except that a model read from no file and naming no log keeps its log in
   * {@code inlineFolder}: the folder must be the same for every process that uses the same
   * shards, and for no other shards, since a log's records name shards only by name.
   *
   * @param inlineFolder where a model without a file keeps its log; null for no log
   */
  public static TransactionSettings of(String schema, TransactionsSpec spec,
      @Nullable Path modelFile, @Nullable Path inlineFolder) {
    return of(schema, spec, modelFile, inlineFolder, null);
  }

  /**
   * A schema's settings as {@link #of(String, TransactionsSpec, Path, Path)} gives them,
   * except that a model kept in a catalog and naming no log keeps its log in the catalog
   * database, where every process that serves the model finds it, and any of them finishes
   * the transactions another one decided before it died.
   *
   * @param catalog the catalog the model is kept in, or null
   */
  public static TransactionSettings of(String schema, TransactionsSpec spec,
      @Nullable Path modelFile, @Nullable Path inlineFolder, @Nullable CatalogSpec catalog) {
    final Duration interval = Duration.ofSeconds(spec.recoveryIntervalSeconds());
    final Path folder = modelFile == null ? null
        : modelFile.toAbsolutePath().normalize().getParent();
    final LogDatabase log;
    String noLog = null;
    if (spec.logIsJdbcUrl()) {
      log = LogDatabase.jdbcUrl(spec.log());
    } else if (spec.log() == null && catalog != null) {
      log = new LogDatabase(catalog.jdbcUrl(), catalog.user(), catalog.password(), null);
    } else if (spec.log() != null) {
      final Path directory = folder == null ? Path.of(spec.log()) : folder.resolve(spec.log());
      log = LogDatabase.h2File(directory.resolve(fileName(schema)));
    } else if (modelFile != null) {
      log = LogDatabase.h2File(folder.resolve(
          EXTENSION.matcher(modelFile.getFileName().toString()).replaceFirst("") + "."
              + fileName(schema)));
    } else if (inlineFolder != null) {
      log = LogDatabase.h2File(inlineFolder.resolve(fileName(schema)));
    } else {
      log = null;
      noLog = "schema '" + schema + "' was not read from a model file, so it has no default"
          + " decision log; set \"transactions\": {\"log\": \"<directory or JDBC URL>\"} in"
          + " its operand";
    }
    return new TransactionSettings(schema, log, noLog, spec.bestEffort(), interval,
        Duration.ofMillis(spec.deadlockCheckMillis()));
  }

  /** A file name for the schema's log: characters other than letters and digits become _. */
  private static String fileName(String schema) {
    return UNSAFE.matcher(schema).replaceAll("_") + ".transactions";
  }
}
