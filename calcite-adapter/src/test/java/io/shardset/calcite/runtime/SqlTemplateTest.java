package io.shardset.calcite.runtime;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.apache.calcite.sql.parser.SqlParser;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests that {@link SqlTemplate} puts tables and their aliases in their places. */
class SqlTemplateTest {
  private static final List<String> COLUMNS = List.of("ID", "NAME");

  private static SqlNode parse(String sql) throws Exception {
    return SqlParser.create(sql, SqlParser.config().withCaseSensitive(true)
        .withQuotedCasing(Casing.UNCHANGED).withUnquotedCasing(Casing.UNCHANGED)).parseQuery();
  }

  private static PhysicalTable table(String name) {
    return new PhysicalTable(List.of(name), COLUMNS);
  }

  @Test void namesTheAliasOfEachTable() throws Exception {
    final SqlTemplate template = new SqlTemplate(H2SqlDialect.DEFAULT,
        parse("SELECT \"SHARDSET$SCAN1$0\".\"NAME\" FROM \"SHARDSET$SCAN0$\" JOIN"
            + " \"SHARDSET$SCAN1$\" AS \"SHARDSET$SCAN1$0\" ON \"SHARDSET$SCAN0$\".\"ID\""
            + " = \"SHARDSET$SCAN1$0\".\"ID\""),
        List.of(new ScanShape(false, COLUMNS, false), new ScanShape(false, COLUMNS, true)));
    assertEquals("SELECT \"T0\".\"NAME\" FROM \"T\" INNER JOIN \"T\" AS \"T0\" ON \"T\".\"ID\""
        + " = \"T0\".\"ID\"", template.fill(List.of(List.of(table("T")), List.of(table("T"))))
        .sql());
  }

  @Test void writesTheTablesOfAScanAsOneDerivedTable() throws Exception {
    final SqlTemplate template = new SqlTemplate(H2SqlDialect.DEFAULT,
        parse("SELECT \"t\".\"NAME\" FROM (SELECT * FROM \"SHARDSET$UNION0$0\" UNION ALL"
            + " SELECT * FROM \"SHARDSET$UNION0$1\") AS \"t\" JOIN \"SHARDSET$SCAN1$\""
            + " AS \"SHARDSET$SCAN1$0\" ON \"t\".\"ID\" = \"SHARDSET$SCAN1$0\".\"ID\""
            + " WHERE \"t\".\"ID\" = ?"),
        List.of(new ScanShape(true, COLUMNS, false), new ScanShape(false, COLUMNS, true)));
    final SqlTemplate.Rendered sql = template.fill(List.of(
        List.of(table("A"), table("B"), table("C")), List.of(table("A"))));
    assertEquals("SELECT \"t\".\"NAME\" FROM (SELECT * FROM \"A\" UNION ALL SELECT * FROM"
        + " \"B\" UNION ALL SELECT * FROM \"C\") AS \"t\" INNER JOIN \"A\" AS \"A0\""
        + " ON \"t\".\"ID\" = \"A0\".\"ID\" WHERE \"t\".\"ID\" = ?", sql.sql());
    assertEquals(List.of(0), sql.parameters());
  }

  @Test void aTemplateWithoutThePlaceOfAScanFailsLoudly() throws Exception {
    final SqlTemplate template = new SqlTemplate(H2SqlDialect.DEFAULT,
        parse("SELECT * FROM \"SHARDSET$SCAN0$\""),
        List.of(new ScanShape(false, COLUMNS, false), new ScanShape(false, COLUMNS, false)));
    assertThrows(IllegalStateException.class,
        () -> template.fill(List.of(List.of(table("A")), List.of(table("B")))));
  }
}
