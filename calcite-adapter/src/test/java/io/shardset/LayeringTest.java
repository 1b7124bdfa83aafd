package io.shardset;

import io.shardset.calcite.SequenceValues;
import io.shardset.calcite.ShardSchemaFactory;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.calcite.jdbc.ShardSetDriver;
import io.shardset.calcite.relations.StatementCancel;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.freeze.FreezingArchRule;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layers of ShardSet's main code, from the bottom: routing (pure functions of keys),
 * model (configuration) and execution (running statements on shards' endpoints), topology
 * (the tables resolved against what the shards hold, and where their rows live), the planner
 * ({@code io.shardset.calcite}), and above it loading and resharding, which use topology, not
 * the planner.
 *
 * <p>Each rule is what the layering is meant to be. Where today's code does not follow one
 * yet, its violations are frozen in {@code src/test/resources/archunit-frozen/} (ArchUnit's
 * {@link FreezingArchRule}): those known ones pass, a new one fails, and the store shrinks as
 * they are mended (see docs/architecture.md).
 */
class LayeringTest {
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.shardset");

  @Test void routingImportsNoOtherLayer() {
    check(noClasses().that().resideInAPackage("io.shardset.routing..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.model..",
            "io.shardset.topology..", "io.shardset.execution..", "io.shardset.calcite..",
            "io.shardset.load..", "io.shardset.reshard..", "org.apache.calcite.."));
  }

  @Test void modelImportsOnlyRouting() {
    check(noClasses().that().resideInAPackage("io.shardset.model..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.topology..",
            "io.shardset.execution..", "io.shardset.calcite..", "io.shardset.load..",
            "io.shardset.reshard.."));
  }

  /** Topology holds the resolved tables with their shards' endpoints (execution's connection
   * pools), and is what loading and resharding read tables through: no Calcite. */
  @Test void topologyImportsNoCalciteNorLayerAbove() {
    check(noClasses().that().resideInAPackage("io.shardset.topology..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.calcite..",
            "io.shardset.load..", "io.shardset.reshard..", "org.apache.calcite.."));
  }

  /** JDBC's value types (dates, type codes) are data; connections, files and sockets are
   * I/O, which belongs to the layers above. */
  @Test void modelDoesNoIo() {
    check(noClasses().that().resideInAPackage("io.shardset.model..")
        .should().dependOnClassesThat(resideInAnyPackage("java.net..", "java.nio.file..",
                "java.nio.channels..", "org.apache.calcite..")
            .or(belongToAnyOf(Connection.class, DriverManager.class, Statement.class,
                ResultSet.class, DatabaseMetaData.class, File.class, FileInputStream.class,
                FileOutputStream.class, RandomAccessFile.class))));
  }

  /** The catalog keeps models in a database: it reads and writes their text, and knows
   * nothing built on a model. */
  @Test void catalogImportsOnlyModel() {
    check(noClasses().that().resideInAPackage("io.shardset.catalog..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.topology..",
            "io.shardset.execution..", "io.shardset.calcite..", "io.shardset.load..",
            "io.shardset.reshard..", "io.shardset.session..", "io.shardset.transaction..",
            "io.shardset.write..", "org.apache.calcite.."));
  }

  /** Global sequences take blocks from a schema's shared database: they know the model and
   * where that database is (the decision log's), no tables, no sessions, no planner. */
  @Test void sequencesImportOnlyModelAndTransactions() {
    check(noClasses().that().resideInAPackage("io.shardset.sequence..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.topology..",
            "io.shardset.session..", "io.shardset.write..", "io.shardset.calcite..",
            "io.shardset.load..", "io.shardset.reshard..", "io.shardset.catalog..",
            "org.apache.calcite.."));
  }

  /** Execution runs statements on endpoints: it knows no model nor the tables built on it. */
  @Test void executionImportsOnlyRouting() {
    check(noClasses().that().resideInAPackage("io.shardset.execution..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.model..",
            "io.shardset.topology..", "io.shardset.calcite..", "io.shardset.load..",
            "io.shardset.reshard.."));
  }

  /** Transactions enlist endpoints and decide commits: they know no tables, no routing, no
   * sessions, no planner. */
  @Test void transactionsImportOnlyExecutionAndModel() {
    check(noClasses().that().resideInAPackage("io.shardset.transaction..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.routing..",
            "io.shardset.topology..", "io.shardset.session..", "io.shardset.calcite..",
            "io.shardset.load..", "io.shardset.reshard..", "org.apache.calcite.."));
  }

  /** Writes place rows with the topology and write them in transactions: they may use
   * routing, model, topology, execution and transactions, but know no planner, no loader and
   * no resharding (the Calcite runtime converts its values before handing rows over). */
  @Test void writesImportNoPlannerLoaderOrResharding() {
    check(noClasses().that().resideInAPackage("io.shardset.write..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.calcite..",
            "io.shardset.load..", "io.shardset.reshard..", "org.apache.calcite.."));
  }

  /** Sessions hold a client's transaction, savepoints and settings, whatever protocol the
   * client came in by: they know transactions and endpoints, no Calcite, no tables, no
   * writes. */
  @Test void sessionsImportNoCalciteNorTablesNorWrites() {
    check(noClasses().that().resideInAPackage("io.shardset.session..")
        .should().dependOnClassesThat().resideInAnyPackage("io.shardset.routing..",
            "io.shardset.topology..", "io.shardset.write..", "io.shardset.calcite..",
            "io.shardset.load..", "io.shardset.reshard..", "org.apache.calcite.."));
  }

  /**
   * The process runtime is looked up statically only where Calcite or {@code DriverManager}
   * create objects by class name (the schema factory, the driver, the static methods the
   * generated code of the CANCEL function and of a sequence's next value call); everything
   * else gets it, or what it needs of it, passed.
   */
  @Test void theRuntimeIsLookedUpOnlyAtTheEntryPoints() {
    check(noClasses().that().doNotHaveFullyQualifiedName(ShardSchemaFactory.class.getName())
        .and().doNotHaveFullyQualifiedName(ShardSetDriver.class.getName())
        .and().doNotHaveFullyQualifiedName(StatementCancel.class.getName())
        .and().doNotHaveFullyQualifiedName(SequenceValues.class.getName())
        .and().doNotHaveFullyQualifiedName(ShardSetRuntime.class.getName())
        .should().callMethod(ShardSetRuntime.class, "get"));
  }

  @Test void loadingAndReshardingImportNoPlanner() {
    check(noClasses().that().resideInAnyPackage("io.shardset.load..", "io.shardset.reshard..")
        .should().dependOnClassesThat().resideInAPackage("io.shardset.calcite.."));
  }

  @Test void loadingImportsNoResharding() {
    check(noClasses().that().resideInAPackage("io.shardset.load..")
        .should().dependOnClassesThat().resideInAPackage("io.shardset.reshard.."));
  }

  @Test void noPackageCycles() {
    check(slices().matching("io.shardset.(**)").should().beFreeOfCycles());
  }

  private static void check(ArchRule rule) {
    FreezingArchRule.freeze(rule).check(MAIN);
  }
}
