package io.shardset.calcite;

import io.shardset.execution.ModelResources;
import io.shardset.model.ShardSetModel;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractTable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Tests {@link ModelTables}: tables are built once per model version and resources, again
 * once older than the maximum age, never kept from a failed build, and dropped with the
 * resources.
 */
class ModelTablesTest {
  private static final ShardSetModel MODEL =
      new ShardSetModel("S", List.of(), null, List.of(), null, List.of());
  private static final ShardSetModel OTHER =
      new ShardSetModel("S", List.of(), null, List.of(), 4, List.of());

  private final ScheduledExecutorService housekeeping =
      Executors.newSingleThreadScheduledExecutor();
  private final AtomicLong clock = new AtomicLong();
  private final ModelTables tables = new ModelTables(Duration.ofSeconds(60), clock::get);
  private final AtomicInteger builds = new AtomicInteger();

  @AfterEach void stop() {
    housekeeping.shutdownNow();
  }

  /** Builds a map holding a new table each time, counting builds. */
  private final Supplier<Map<String, Table>> build = () -> {
    builds.incrementAndGet();
    return Map.of("T", new AbstractTable() {
      @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return typeFactory.builder().build();
      }
    });
  };

  @Test void tablesAreBuiltOncePerModelUntilTheyAreTooOld() {
    final ModelResources resources = new ModelResources(housekeeping);
    final Map<String, Table> first = tables.tables(resources, MODEL, null, build);
    clock.addAndGet(Duration.ofSeconds(59).toNanos());
    assertSame(first, tables.tables(resources, MODEL, null, build));
    assertEquals(1, builds.get());

    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    final Map<String, Table> second = tables.tables(resources, MODEL, null, build);
    assertEquals(2, builds.get());
    assertSame(second, tables.tables(resources, MODEL, null, build));
    assertEquals(2, builds.get());
  }

  @Test void anotherModelOrResourcesBuildAgain() {
    final ModelResources resources = new ModelResources(housekeeping);
    tables.tables(resources, MODEL, null, build);
    tables.tables(resources, OTHER, null, build);
    assertEquals(2, builds.get());
    final ModelResources reopened = new ModelResources(housekeeping);
    tables.tables(reopened, OTHER, null, build);
    assertEquals(3, builds.get());
    // Closing the resources forgets their tables.
    reopened.close();
    tables.tables(reopened, OTHER, null, build);
    assertEquals(4, builds.get());
  }

  @Test void aFailedBuildIsNotKept() {
    final ModelResources resources = new ModelResources(housekeeping);
    final IllegalStateException failure = new IllegalStateException("shard 's1' failed");
    assertSame(failure, assertThrows(IllegalStateException.class,
        () -> tables.tables(resources, MODEL, null, () -> {
          throw failure;
        })));
    tables.tables(resources, MODEL, null, build);
    assertEquals(1, builds.get());
  }

  @Test void aMaximumAgeOfZeroBuildsForEveryConnection() {
    final ModelTables uncached = new ModelTables(Duration.ZERO, clock::get);
    final ModelResources resources = new ModelResources(housekeeping);
    uncached.tables(resources, MODEL, null, build);
    uncached.tables(resources, MODEL, null, build);
    assertEquals(2, builds.get());
  }
}
