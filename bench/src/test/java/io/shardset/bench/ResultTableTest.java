package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link ResultTable}. */
class ResultTableTest {
  private final ResultTable table = new ResultTable("w17 clients", "How to read it.",
      List.of("system", "queries/s", "note"),
      List.of(List.of("X", "9,000", "fast"), List.of("S", "12", "a | b")));

  @Test void asTextColumnsAreAsWideAsTheirWidestCellNumbersRightAlignedWordsLeft() {
    assertEquals("w17 clients\n"
        + "system  queries/s  note\n"
        + "X           9,000  fast\n"
        + "S              12  a | b\n", table.text());
  }

  @Test void asMarkdownItIsASectionWithItsNoteAndEscapedCells() {
    assertEquals("\n## w17 clients\n\nHow to read it.\n\n"
        + "| system | queries/s | note |\n| --- | ---: | --- |\n"
        + "| X | 9,000 | fast |\n| S | 12 | a \\| b |\n", table.markdown());
  }

  @Test void aRowMustHaveACellPerColumn() {
    assertThrows(IllegalArgumentException.class, () -> new ResultTable("t", "",
        List.of("a", "b"), List.of(List.of("1"))));
  }

  @Test void aTableWithoutANoteHasNoEmptyParagraph() {
    assertEquals("\n## t\n\n| a |\n| --- |\n| 1 |\n",
        new ResultTable("t", "", List.of("a"), List.of(List.of("1"))).markdown());
  }

  @Test void theReportShowsItsTablesInBothForms() {
    final Report report = new Report();
    report.addTable(table);
    assertEquals(true, report.table().contains(table.text()), report.table());
    assertEquals(true, report.markdown().contains(table.markdown()), report.markdown());
  }
}
