package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests the texts of {@link NewShapes}. */
class NewShapesTest {
  private static final Pattern STRINGS = Pattern.compile("'[^']*'");
  private static final Pattern NUMBERS = Pattern.compile("(?<![\\w_])-?\\d+(?![\\w_])");

  @Test void everyIterationIsANewShapeEvenWithItsNumbersTakenOut() {
    for (NewShapes.Shape shape : NewShapes.Shape.values()) {
      final Set<String> shapes = new HashSet<>();
      for (int i = 0; i < 200; i++) {
        // What a plan cache that turns literals into parameters would see.
        final String sql = NewShapes.sql(shape, "x4", i, 7);
        assertTrue(shapes.add(withoutLiterals(sql)), shape + " " + i + " repeats: " + sql);
      }
    }
  }

  @Test void theSaltKeepsTwoSystemsTextsApart() {
    final String four = NewShapes.sql(NewShapes.Shape.POINT, "x4", 3, 7);
    final String many = NewShapes.sql(NewShapes.Shape.POINT, "x1024", 3, 7);
    assertTrue(!four.equals(many), four);
  }

  @Test void thePointShapeIsRoutedByTheShardKey() {
    assertEquals("SELECT ORDER_ID AS x4_0_0, ORDER_DATE AS x4_0_1, STATUS AS x4_0_2,"
        + " TOTAL AS x4_0_3 FROM ORDERS WHERE CUSTOMER_ID = 7 AND TOTAL >= 0",
        NewShapes.sql(NewShapes.Shape.POINT, "x4", 0, 7));
  }

  private static String withoutLiterals(String sql) {
    return NUMBERS.matcher(STRINGS.matcher(sql).replaceAll("?")).replaceAll("?");
  }
}
