package io.shardset.calcite.runtime;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.H2SqlDialect;
import org.apache.calcite.sql.parser.SqlParser;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests that {@link ShardStatements} fills in the tables an execution chooses, keeps a
 * bounded number of choices' texts, and that {@link SubpartitionChoice} asks no shard only
 * where that is right. */
class ShardStatementsTest {
  private static final List<String> COLUMNS = List.of("ID");
  /** Six subpartition tables on each of two shards. */
  private static final List<PhysicalTable> TABLES = List.of(table("P0"), table("P1"),
      table("P2"), table("P3"), table("P4"), table("P5"));

  private static PhysicalTable table(String name) {
    return new PhysicalTable(List.of(name), COLUMNS);
  }

  private static SqlTemplate template(String sql, boolean union) throws Exception {
    final SqlNode statement = SqlParser.create(sql, SqlParser.config()
        .withQuotedCasing(Casing.UNCHANGED).withUnquotedCasing(Casing.UNCHANGED)).parseQuery();
    return new SqlTemplate(H2SqlDialect.DEFAULT, statement,
        List.of(new ScanShape(union, COLUMNS, false)));
  }

  private static ShardStatements statements() throws Exception {
    final BitSet shards = new BitSet();
    shards.set(0, 2);
    final ShardStatements.Group group = new ShardStatements.Group(shards, List.of(TABLES),
        true, Map.of(
            List.of(new ScanShape(false, COLUMNS, false)),
            template("SELECT * FROM \"SHARDSET$SCAN0$\" WHERE \"ID\" = ?", false),
            List.of(new ScanShape(true, COLUMNS, false)),
            template("SELECT * FROM (SELECT * FROM \"SHARDSET$UNION0$0\" UNION ALL"
                + " SELECT * FROM \"SHARDSET$UNION0$1\") AS \"t\" WHERE \"ID\" = ?", true)));
    return new ShardStatements(2, List.of(group), null);
  }

  private static BitSet bits(long bits) {
    return BitSet.valueOf(new long[] {bits});
  }

  @Test void fixedStatementsGiveThePlannedTextsAndRefuseAnyOtherChoice() {
    final ShardTexts planned = new ShardTexts(List.of(new ShardTexts.Text(bits(0b11),
        "SELECT * FROM \"P0\" WHERE \"ID\" = ?", List.of(0))), 2);
    final ShardStatements statements = ShardStatements.fixed(planned);
    assertSame(planned, statements.planned());
    assertSame(planned, statements.texts(null, new BitSet(), new BitSet()));
    final IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> statements.texts(null, bits(0b01), bits(0b1)));
    assertEquals("the scan was prepared for the planned tables only", e.getMessage());
  }

  @Test void fillsInTheChosenTablesAndKeepsTheText() throws Exception {
    final ShardStatements statements = statements();
    final ShardTexts two = statements.texts(bits(0b011), new BitSet(), new BitSet());
    assertEquals("SELECT * FROM (SELECT * FROM \"P0\" UNION ALL SELECT * FROM \"P1\") AS \"t\""
        + " WHERE \"ID\" = ?", two.of(1).sql());
    assertEquals(List.of(0), two.of(1).parameters());
    assertSame(two, statements.texts(bits(0b011), new BitSet(), new BitSet()));
    assertEquals("SELECT * FROM \"P2\" WHERE \"ID\" = ?",
        statements.texts(bits(0b100), new BitSet(), new BitSet()).of(0).sql());
    assertEquals("SELECT * FROM \"P0\" WHERE \"ID\" = ?", // none chosen reads the first
        statements.texts(new BitSet(), new BitSet(), new BitSet()).of(0).sql());
    final ShardTexts moving = statements.texts(bits(0b100), bits(0b10), bits(0b1));
    assertEquals("SELECT * FROM \"P2\" WHERE \"ID\" = ?", moving.of(0).sql());
    assertEquals("SELECT * FROM (SELECT * FROM \"P2\" UNION ALL SELECT * FROM"
        + " \"P2_SHARDSET_MOVE\") AS \"t\" WHERE \"ID\" = ?", moving.of(1).sql());
  }

  @Test void keepsABoundedNumberOfChoices() throws Exception {
    final ShardStatements statements = statements();
    final ShardTexts first = statements.texts(bits(1), new BitSet(), new BitSet());
    for (long bits = 2; bits <= ShardStatements.KEPT + 10; bits++) {
      statements.texts(bits(bits), new BitSet(), new BitSet());
    }
    assertEquals(ShardStatements.KEPT, statements.keptCount());
    final ShardTexts recent = statements.texts(bits(ShardStatements.KEPT + 10), new BitSet(),
        new BitSet());
    assertSame(recent, statements.texts(bits(ShardStatements.KEPT + 10), new BitSet(),
        new BitSet())); // recently used: still kept
    final ShardTexts again = statements.texts(bits(1), new BitSet(), new BitSet());
    assertNotSame(first, again); // dropped long ago: filled in again
    assertEquals(first.of(0).sql(), again.of(0).sql());
  }

  @Test void noSelectionAsksNoShardUnlessTheWorkAlwaysReturnsARow() {
    assertNull(new SubpartitionChoice(params -> new BitSet(), true).selection(i -> 0L));
    assertEquals(new BitSet(),
        new SubpartitionChoice(params -> new BitSet(), false).selection(i -> 0L));
    assertEquals(bits(0b101),
        new SubpartitionChoice(params -> bits((Long) params.apply(0)), true)
            .selection(i -> 0b101L));
  }
}
