package io.shardset.calcite.plan;

import io.shardset.calcite.ShardSchema;
import io.shardset.calcite.ShardSetRuntime;
import io.shardset.testing.Backend;
import io.shardset.testing.ShardFixture;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Joins over PostgreSQL shards are estimated from their columns' distinct values, as ANALYZE
 * left them: a join on a unique column makes as many rows as its other side, one on a column
 * of a few values the product divided by their number; Calcite's own guess (15 % of the
 * product for any equality) is the same for both.
 */
class ShardMetadataTest {
  private static final int ITEMS = 1_000;
  private static final int SALES = 4_000;
  private static final int COLORS = 5;

  private static ShardFixture fixture;
  private static ShardSetRuntime runtime;
  private static ShardSchema schema;

  @BeforeAll static void load() throws SQLException {
    fixture = ShardFixture.create(Backend.POSTGRES, 4,
        "CREATE TABLE ITEMS (ITEM_ID BIGINT PRIMARY KEY, COLOR INTEGER NOT NULL)",
        "CREATE TABLE SALES (SALE_ID BIGINT PRIMARY KEY, ITEM_ID BIGINT NOT NULL,"
            + " COLOR INTEGER NOT NULL)");
    final String model = fixture.model("\"tables\": ["
        + "{\"name\": \"ITEMS\", \"method\": \"consistent-hash\", \"shardKey\": [\"ITEM_ID\"]},"
        + "{\"name\": \"SALES\", \"method\": \"consistent-hash\", \"shardKey\": [\"SALE_ID\"]}]");
    final List<Object[]> items = new ArrayList<>();
    for (long id = 0; id < ITEMS; id++) {
      items.add(new Object[] {id, (int) (id % COLORS)});
    }
    final List<Object[]> sales = new ArrayList<>();
    for (long id = 0; id < SALES; id++) {
      sales.add(new Object[] {id, id * 7 % ITEMS, (int) (id % COLORS)});
    }
    try (Connection c = ShardFixture.connect(model)) {
      fixture.load(c, "ITEMS", items);
      fixture.load(c, "SALES", sales);
    }
    fixture.shards().executeOnAll("ANALYZE");
    runtime = new ShardSetRuntime();
    schema = runtime.connect(ShardFixture.SCHEMA, ShardFixture.operand(model));
  }

  @AfterAll static void close() throws SQLException {
    if (runtime != null) {
      runtime.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test void aJoinOnAKeyMakesAsManyRowsAsItsOtherSide() {
    final RelNode join = join("ITEM_ID");
    assertEquals(SALES, rows(join, ShardMetadata.PROVIDER), SALES * 0.01);
    assertEquals(0.15 * SALES * ITEMS, rows(join, DefaultRelMetadataProvider.INSTANCE), 1);
  }

  @Test void aJoinOnAColumnOfFewValuesMakesTheProductOverTheirNumber() {
    final RelNode join = join("COLOR");
    assertEquals((double) SALES * ITEMS / COLORS, rows(join, ShardMetadata.PROVIDER),
        SALES * ITEMS * 0.01);
    assertEquals(0.15 * SALES * ITEMS, rows(join, DefaultRelMetadataProvider.INSTANCE), 1);
  }

  private static RelNode join(String column) {
    final SchemaPlus root = Frameworks.createRootSchema(true);
    root.add(ShardFixture.SCHEMA, schema);
    final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root)
        .build());
    return b.scan(ShardFixture.SCHEMA, "SALES").scan(ShardFixture.SCHEMA, "ITEMS")
        .join(JoinRelType.INNER, b.equals(b.field(2, 0, column), b.field(2, 1, column)))
        .build();
  }

  private static double rows(RelNode rel, RelMetadataProvider provider) {
    rel.getCluster().setMetadataProvider(provider);
    rel.getCluster().invalidateMetadataQuery();
    return rel.getCluster().getMetadataQuery().getRowCount(rel);
  }

}
