package io.shardset.clients;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import schemacrawler.inclusionrule.RegularExpressionInclusionRule;
import schemacrawler.schema.Catalog;
import schemacrawler.schema.Column;
import schemacrawler.schema.PrimaryKey;
import schemacrawler.schema.Table;
import schemacrawler.schema.TableConstraintColumn;
import schemacrawler.schemacrawler.LimitOptionsBuilder;
import schemacrawler.schemacrawler.LoadOptionsBuilder;
import schemacrawler.schemacrawler.SchemaCrawlerOptions;
import schemacrawler.schemacrawler.SchemaCrawlerOptionsBuilder;
import schemacrawler.schemacrawler.SchemaInfoLevelBuilder;
import schemacrawler.tools.command.text.schema.options.TextOutputFormat;
import schemacrawler.tools.commandline.SchemaCrawlerCommandLine;
import schemacrawler.tools.executable.SchemaCrawlerExecutable;
import schemacrawler.tools.options.OutputOptionsBuilder;
import schemacrawler.tools.utility.SchemaCrawlerUtility;
import us.fatehi.utility.datasource.DatabaseConnectionSource;
import us.fatehi.utility.datasource.DatabaseConnectionSources;
import us.fatehi.utility.datasource.MultiUseUserCredentials;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SchemaCrawler, in process, over ShardSet: loads the catalog as its command line does and runs
 * its {@code count} and {@code details} commands, through its Java API and through its command
 * line, embedded and through the server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchemaCrawlerTest {
  /** What separates a report's columns: two spaces or more. */
  private static final Pattern COLUMN_GAP = Pattern.compile(" {2,}");

  private Path folder;
  private ShardedFixture fixture;

  @BeforeAll void createModel(@TempDir Path dir) throws Exception {
    folder = dir;
    fixture = ShardedFixture.create(folder);
  }

  @AfterAll void close() throws SQLException {
    fixture.close();
  }

  private String url(String driver) throws SQLException {
    return "embedded".equals(driver) ? fixture.embeddedUrl() : fixture.remoteUrl();
  }

  private static DatabaseConnectionSource source(String url) {
    return DatabaseConnectionSources.newDatabaseConnectionSource(url,
        new MultiUseUserCredentials("", ""));
  }

  /** The schema S at standard info level, as {@code --info-level standard --schemas S}. */
  private static SchemaCrawlerOptions options() {
    return SchemaCrawlerOptionsBuilder.newSchemaCrawlerOptions()
        .withLimitOptions(LimitOptionsBuilder.builder()
            .includeSchemas(new RegularExpressionInclusionRule(ShardedFixture.SCHEMA))
            .toOptions())
        .withLoadOptions(LoadOptionsBuilder.builder()
            .withSchemaInfoLevel(SchemaInfoLevelBuilder.standard()).toOptions());
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void catalogListsTablesColumnsAndTypes(String driver) throws Exception {
    final Catalog catalog = SchemaCrawlerUtility.getCatalog(source(url(driver)), options());
    final List<String> tables = new ArrayList<>();
    for (Table table : catalog.getTables()) {
      tables.add(table.getSchema().getFullName() + "." + table.getName());
    }
    assertEquals(List.of("S.CUSTOMERS", "S.ORDERS", "S.REGIONS"), tables);
    final List<String> columns = new ArrayList<>();
    for (Column column : orders(catalog).getColumns()) {
      columns.add(column.getName() + " " + column.getColumnDataType().getName() + " "
          + column.getColumnDataType().getJavaSqlType().getVendorTypeNumber() + " "
          + column.getWidth() + (column.isNullable() ? "" : " not null"));
    }
    // The type name alone, the size apart: not "VARCHAR(10)(10)".
    assertEquals(List.of("ID BIGINT -5  not null", "CUSTOMER_ID BIGINT -5  not null",
        "ORDERED_AT TIMESTAMP 93  not null", "TOTAL DECIMAL 3 (12, 2) not null",
        "STATUS VARCHAR 12 (10)"), columns);
  }

  private static Table orders(Catalog catalog) {
    return catalog.lookupTable(catalog.lookupSchema(ShardedFixture.SCHEMA).orElseThrow(),
        "ORDERS").orElseThrow();
  }

  @Test void embeddedCatalogHasThePrimaryKeys() throws Exception {
    assertPrimaryKey(SchemaCrawlerUtility.getCatalog(source(fixture.embeddedUrl()), options()));
  }

  @Test void remoteCatalogHasThePrimaryKeys() throws Exception {
    assertPrimaryKey(SchemaCrawlerUtility.getCatalog(source(fixture.remoteUrl()), options()));
  }

  private static void assertPrimaryKey(Catalog catalog) {
    final Table orders = orders(catalog);
    assertTrue(orders.hasPrimaryKey(), "ORDERS has no primary key");
    final PrimaryKey key = orders.getPrimaryKey();
    assertEquals("ORDERS_PK", key.getName());
    final List<String> columns = new ArrayList<>();
    for (TableConstraintColumn column : key.getConstrainedColumns()) {
      columns.add(column.getName());
    }
    assertEquals(List.of("ID"), columns);
  }

  /** Runs a command as the command line would, with text output, and returns the text. */
  private String run(String command, String url) throws IOException {
    final Path out = folder.resolve(command + "-" + Math.abs(url.hashCode()) + ".txt");
    final SchemaCrawlerExecutable executable = new SchemaCrawlerExecutable(command);
    executable.setSchemaCrawlerOptions(options());
    executable.setOutputOptions(OutputOptionsBuilder.newOutputOptions(TextOutputFormat.text, out));
    executable.setDataSource(source(url));
    executable.execute();
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  /** The lines of one section of a text report, blank ones dropped and spaces collapsed. */
  private static List<String> section(String text, String title, String next) {
    final int start = text.indexOf(title + System.lineSeparator() + "====");
    assertTrue(start >= 0, () -> "no section " + title + " in " + text);
    final int end = next == null ? text.length() : text.indexOf(next, start + title.length());
    final List<String> lines = new ArrayList<>();
    final String body = text.substring(start, end < 0 ? text.length() : end);
    for (String line : body.split(System.lineSeparator())) {
      if (!line.isBlank() && !line.startsWith("====") && !line.startsWith("----")) {
        lines.add(COLUMN_GAP.matcher(line.strip()).replaceAll(" | "));
      }
    }
    return lines;
  }

  /** Runs a command through SchemaCrawler's command line, in process, as
   * {@code schemacrawler.sh --url ... --info-level standard --schemas S --command ...}. */
  private String runCommandLine(String command, String url) throws IOException {
    final Path out = folder.resolve(command + "-cli-" + Math.abs(url.hashCode()) + ".txt");
    final int code = SchemaCrawlerCommandLine.execute(new String[] {"--url", url, "--user", "",
        "--password", "", "--info-level", "standard", "--schemas", ShardedFixture.SCHEMA,
        "--command", command, "--output-format", "text", "--output-file", out.toString()});
    assertEquals(0, code, "exit code of the " + command + " command");
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  private void assertCountReport(String text) throws SQLException {
    final List<String> expected = new ArrayList<>(List.of("Row Count", "Row Count"));
    for (String table : ShardedFixture.TABLES) {
      expected.add("S." + table + " | " + fixture.expected("SELECT COUNT(*) FROM " + table)
          .get(0) + " rows");
    }
    assertEquals(expected, section(text, "Row Count", null), text);
  }

  private static void assertDetailsReport(String text, String driver) {
    // Embedded and remote alike (ShardSet's remote driver reads keys and indexes from the
    // server's system tables). An index is unique only where equal values are on one shard:
    // ORDERS is sharded by CUSTOMER_ID, so its primary key's index on ID is not.
    final List<String> expected = new ArrayList<>(List.of("Tables",
        "S.CUSTOMERS | [table]", "ID | BIGINT NOT NULL", "NAME | VARCHAR(40) NOT NULL",
        "REGION | CHAR(2)", "SIGNUP | DATE NOT NULL",
        "Primary Key", "CUSTOMERS_PK | [primary key]", "ID",
        "Indexes", "PRIMARY_KEY_62 | [unique index]", "ID | ascending",
        "S.ORDERS | [table]", "ID | BIGINT NOT NULL", "CUSTOMER_ID | BIGINT NOT NULL",
        "ORDERED_AT | TIMESTAMP NOT NULL", "TOTAL | DECIMAL(12, 2) NOT NULL",
        "STATUS | VARCHAR(10)",
        "Primary Key", "ORDERS_PK | [primary key]", "ID",
        "Indexes", "PRIMARY_KEY_8 | [non-unique index]", "ID | ascending",
        "S.REGIONS | [table]", "CODE | CHAR(2) NOT NULL", "NAME | VARCHAR(20) NOT NULL",
        "Primary Key", "REGIONS_PK | [primary key]", "CODE",
        "Indexes", "PRIMARY_KEY_6 | [unique index]", "CODE | ascending"));
    assertEquals(expected, section(text, "Tables", "Data Types"), text);
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void countCommandCountsTheRowsOfEveryTable(String driver) throws Exception {
    assertCountReport(run("count", url(driver)));
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void detailsCommandDescribesTheTables(String driver) throws Exception {
    assertDetailsReport(run("details", url(driver)), driver);
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "remote"})
  void commandLineRunsCountAndDetails(String driver) throws Exception {
    assertCountReport(runCommandLine("count", url(driver)));
    assertDetailsReport(runCommandLine("details", url(driver)), driver);
  }
}
