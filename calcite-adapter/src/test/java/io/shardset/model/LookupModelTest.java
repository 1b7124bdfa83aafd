package io.shardset.model;

import io.shardset.routing.LookupRouter;

import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.parse;
import static io.shardset.model.TestOperands.twoShards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests the {@code lookup} method's model: the directory, its defaults and validation. */
class LookupModelTest {
  private static final Pattern OPEN_BRACE = Pattern.compile("\\{");
  private static final String DOCS = """
      {"name": "TENANT_DOCS", "method": "lookup", "shardKey": ["TENANT_ID"]%s}""";

  private static String docs(String rest) {
    return String.format(Locale.ROOT, DOCS, rest);
  }

  @Test void explicitDirectory() {
    TableSpec table = parse(twoShards(docs("""
        , "directory": {"jdbcUrl": "jdbc:postgresql://db/dir", "jdbcUser": "app",
          "jdbcPassword": "${env:PGPASSWORD}", "table": "TENANTS", "keyColumn": "TENANT",
          "shardColumn": "SHARD", "cacheSize": 500, "cacheSeconds": 0}"""))).tables().get(0);
    assertEquals(ShardingMethod.LOOKUP, table.method());
    assertEquals(List.of("s0", "s1"), table.shards());
    assertEquals(new DirectorySpec("jdbc:postgresql://db/dir", "app", "s3cret", "TENANTS",
        "TENANT", "SHARD", 500, 0), table.directory());
    assertFalse(table.directory().toString().contains("s3cret"), table.directory().toString());
  }

  @Test void defaultDirectoryIsAnH2FileNextToTheModel() {
    String operand = OPEN_BRACE.matcher(twoShards(docs("")))
        .replaceFirst("{\"baseDirectory\": \"/srv/m\",");
    assertEquals(new DirectorySpec("jdbc:h2:/srv/m/SALES_directory", "sa", "",
            "SHARD_DIRECTORY", "TENANT_ID", "SHARD_NAME", 10_000, 30),
        parse(operand).tables().get(0).directory());
  }

  @Test void defaultDirectoryNeedsTheModelsFolder() {
    assertFails(twoShards(docs("")),
        "Invalid ShardSet model: schema 'SALES', table 'TENANT_DOCS', field 'directory.jdbcUrl':"
            + " ${modelDir} is unknown: the operand has no baseDirectory");
  }

  @Test void invalidDirectoryFields() {
    assertFails(twoShards(docs(", \"directory\": {\"jdbcUrl\": \"jdbc:h2:mem:d\","
            + " \"cacheSecond\": 5}")),
        "Invalid ShardSet model: schema 'SALES', table 'TENANT_DOCS', field"
            + " 'directory.cacheSecond': unknown key; did you mean 'cacheSeconds'?");
    assertFails(twoShards(docs(", \"directory\": {\"jdbcUrl\": \"jdbc:h2:mem:d\","
            + " \"cacheSize\": 0}")),
        "Invalid ShardSet model: schema 'SALES', table 'TENANT_DOCS', field"
            + " 'directory.cacheSize': expected an integer from 1 to 2147483647, got 0");
    assertFails(twoShards(docs(", \"directory\": {\"jdbcUrl\": \"jdbc:h2:mem:d\","
            + " \"table\": \"\"}")),
        "Invalid ShardSet model: schema 'SALES', table 'TENANT_DOCS', field"
            + " 'directory.table': must not be empty");
    assertFails(twoShards(docs(", \"directory\": \"jdbc:h2:mem:d\"")),
        "Invalid ShardSet model: schema 'SALES', table 'TENANT_DOCS', field 'directory':"
            + " expected an object, got a string");
  }

  @Test void directoryOnlyOnLookupTables() {
    assertFails(twoShards("""
            {"name": "T", "method": "consistent-hash", "shardKey": "K",
             "directory": {"jdbcUrl": "jdbc:h2:mem:d"}}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'directory':"
            + " only lookup tables have directory; this table's method is 'consistent-hash'");
  }

  @Test void oneKeyColumn() {
    assertFails(twoShards("""
            {"name": "T", "method": "lookup", "shardKey": ["A", "B"],
             "directory": {"jdbcUrl": "jdbc:h2:mem:d"}}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardKey':"
            + " a lookup table has exactly one shard key column, not 2 (A, B)");
  }

  @Test void routerAndKeyTypes() {
    ShardSetModel model = parse(twoShards(docs(
        ", \"directory\": {\"jdbcUrl\": \"jdbc:h2:mem:d\"}")));
    TableSpec table = model.tables().get(0);
    TableLayout text = new TableLayout(List.of(
        new ColumnInfo("TENANT_ID", Types.VARCHAR, "VARCHAR", 10, 0, false)), List.of());
    LookupRouter router = assertInstanceOf(LookupRouter.class,
        RouterFactory.create(model, table, text, key -> Optional.of("s1")));
    assertEquals(1, router.shardOf(List.of("acme")).getAsInt());
    TableLayout date = new TableLayout(List.of(
        new ColumnInfo("TENANT_ID", Types.DATE, "DATE", 10, 0, false)), List.of());
    ModelException e = assertThrows(ModelException.class,
        () -> RouterFactory.create(model, table, date, key -> Optional.of("s1")));
    assertEquals("Invalid ShardSet model: schema 'SALES', table 'TENANT_DOCS', field"
        + " 'shardKey': column 'TENANT_ID' has type DATE, which cannot be a lookup key;"
        + " supported: integer and decimal types, CHAR, VARCHAR", e.getMessage());
  }
}
