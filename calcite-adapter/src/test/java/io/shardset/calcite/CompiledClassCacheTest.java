package io.shardset.calcite;

import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.config.CalciteSystemProperty;
import org.apache.calcite.runtime.Hook;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statements of new shapes reuse the classes compiled for earlier plans: Calcite's
 * compiled-class cache, keyed on the generated Java text, is on ({@code saffron.properties}),
 * and what a statement sends to the shards (SQL, shards, key values) is not in that text, so
 * statements that differ in their pushed work generate the same code and compile it once.
 */
class CompiledClassCacheTest {
  private static final int STATEMENTS = 20;

  @Test void calcitesCompiledClassCacheIsOn() {
    assertTrue(CalciteSystemProperty.BINDABLE_CACHE_MAX_SIZE.value() >= 1000,
        "calcite.bindable.cache.maxSize is " + CalciteSystemProperty.BINDABLE_CACHE_MAX_SIZE
            .value());
  }

  @Test void statementsDifferingInTheirShardWorkGenerateTheSameCode() throws SQLException {
    final Set<String> generated = new HashSet<>();
    try (ShardFixture fixture = ShardFixture.h2(4,
            "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), N INTEGER)");
         Connection connection = Connector.CALCITE.open(fixture.model("\"tables\": [{"
             + "\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"ID\"]}]"));
         Hook.Closeable hook = Hook.JAVA_PLAN.addThread((String code) -> generated.add(code))) {
      fixture.load(connection, "T", List.of(new Object[] {1, "one", 10},
          new Object[] {2, "two", 20}));
      generated.clear();
      for (int i = 0; i < STATEMENTS; i++) {
        query(connection, i);
      }
    }
    assertEquals(1, generated.size(), STATEMENTS + " statements generated " + generated.size()
        + " texts");
  }

  /** A statement no earlier one had the text of: its own alias, key and predicate, on
   * jdbc:calcite:, which plans every statement. */
  private static void query(Connection connection, int i) throws SQLException {
    final List<String> rows = ShardFixture.rows(connection, "SELECT NAME AS NAME_" + i
        + " FROM T WHERE ID = " + (i % 2 + 1)
        + " AND N " + (i % 3 == 0 ? "> " + -i : "<> " + (1000 + i)));
    assertEquals(1, rows.size(), "rows of statement " + i);
  }
}
