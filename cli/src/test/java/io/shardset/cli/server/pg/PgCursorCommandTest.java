package io.shardset.cli.server.pg;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The cursor statements {@link PgCursorCommand} reads, and those it refuses. */
class PgCursorCommandTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      "DECLARE c CURSOR FOR SELECT 1|DECLARE|c|0|false|SELECT 1",
      "declare \"All Items\" no scroll cursor without hold for select * from t;"
          + "|DECLARE|All Items|0|false|select * from t",
      "DECLARE C BINARY INSENSITIVE CURSOR WITH HOLD FOR\tSELECT a\tFROM t"
          + "|DECLARE|c|0|true|SELECT a\tFROM t",
      "FETCH c|FETCH|c|1|false|-",
      "FETCH NEXT FROM c|FETCH|c|1|false|-",
      "fetch forward 50 from \"all_items\"|FETCH|all_items|50|false|-",
      "FETCH 7 IN c|FETCH|c|7|false|-",
      "FETCH ALL c|FETCH|c|0|false|-",
      "FETCH FORWARD ALL FROM all_items|FETCH|all_items|0|false|-",
      "MOVE FORWARD 3 IN c|MOVE|c|3|false|-",
      "CLOSE c|CLOSE|c|0|false|-",
      "CLOSE ALL|CLOSE|-|0|false|-"})
  void reads(String sql, PgCursorCommand.Kind kind, String name, long count, boolean hold,
      String query) {
    assertEquals(new PgCursorCommand(kind, name, count, hold, query),
        PgCursorCommand.parse(sql));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "DECLARE c SCROLL CURSOR FOR SELECT 1|0A000|scrollable cursors are not supported",
      "FETCH PRIOR FROM c|0A000|cursors go forward only: FETCH PRIOR is not supported",
      "FETCH BACKWARD 2 FROM c|0A000|cursors go forward only: FETCH BACKWARD 2 is not supported",
      "FETCH ABSOLUTE 3 FROM c|0A000|cursors go forward only: FETCH ABSOLUTE 3 is not supported",
      "FETCH 0 FROM c|0A000|cursors go forward only: FETCH 0 is not supported",
      "DECLARE CURSOR FOR SELECT 1|42601|syntax error in cursor statement",
      "CLOSE|42601|syntax error in cursor statement"})
  void refuses(String sql, String state, String message) {
    final PgProtocolException e =
        assertThrows(PgProtocolException.class, () -> PgCursorCommand.parse(sql));
    assertEquals(state, e.sqlState());
    assertEquals(message, e.getMessage());
  }
}
