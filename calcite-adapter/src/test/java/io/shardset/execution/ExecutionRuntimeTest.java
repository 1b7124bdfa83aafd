package io.shardset.execution;

import org.apache.calcite.linq4j.Enumerator;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link ExecutionRuntime}: models' resources counted by leases, closed with the last. */
class ExecutionRuntimeTest {
  private static final String URL = "jdbc:h2:mem:execution_runtime_test;DB_CLOSE_DELAY=-1";

  private static ShardConnectionSettings settings(String name) {
    return new ShardConnectionSettings(name, URL, "sa", "", null);
  }

  @Test void leasesOfOneModelShareItsResourcesUntilTheLastIsReleased() throws SQLException {
    try (ExecutionRuntime runtime = new ExecutionRuntime()) {
      ExecutionRuntime.Lease first = runtime.acquire("m");
      ExecutionRuntime.Lease second = runtime.acquire("m");
      assertSame(first.resources(), second.resources());
      ShardEndpoint endpoint = first.resources().endpoint(settings("r0"));
      assertSame(endpoint, second.resources().endpoint(settings("r0")));

      first.close();
      first.close();
      assertFalse(ShardPools.isClosed(endpoint));
      try (Connection connection = endpoint.connect()) {
        assertTrue(connection.isValid(5));
      }
      assertEquals(1, runtime.openModels());

      second.close();
      assertTrue(ShardPools.isClosed(endpoint));
      assertTrue(first.resources().isClosed());
      assertNull(runtime.resources("m"));
      assertEquals(0, runtime.openModels());
      assertThrows(IllegalStateException.class,
          () -> first.resources().endpoint(settings("r1")));

      ExecutionRuntime.Lease again = runtime.acquire("m");
      assertNotSame(first.resources(), again.resources());
      ShardEndpoint reopened = again.resources().endpoint(settings("r0"));
      assertNotSame(endpoint, reopened);
      assertFalse(ShardPools.isClosed(reopened));
    }
  }

  @Test void closingTheRuntimeEndsItsScanThreadsCancelWatchAndSignalThreads()
      throws Exception {
    final ExecutionRuntime runtime = new ExecutionRuntime();
    final ScanServices services = runtime.scanServices();
    final ShardEndpoint endpoint = runtime.acquire("m").resources().endpoint(settings("r3"));
    // A scan with a cancel flag starts a scan thread and the cancel watch ...
    final ScanOptions options = ScanOptions.defaults(2, services)
        .withCancelFlag(new AtomicBoolean());
    final List<ShardRequest> requests = List.of(ShardRequest.of(endpoint, "select 1"),
        ShardRequest.of(endpoint, "select 2"));
    final List<Object> values = new ArrayList<>();
    try (Enumerator<@Nullable Object[]> scan = ParallelScan.concat(requests,
        RowReader.of(List.of(RowReader.ColumnKind.INTEGER)), options)) {
      while (scan.moveNext()) {
        values.add(scan.current()[0]);
      }
    }
    assertEquals(List.of(1, 2), values.stream().sorted().toList());
    // ... and a cancel a signal thread.
    final CountDownLatch canceled = new CountDownLatch(1);
    try (Connection connection = endpoint.connect();
         Statement statement = connection.createStatement()) {
      services.signals().cancel(endpoint, statement, canceled::countDown);
      assertTrue(canceled.await(1, TimeUnit.MINUTES));
    }

    runtime.close();
    assertTrue(runtime.awaitTermination(1, TimeUnit.MINUTES));
    assertThrows(RejectedExecutionException.class,
        () -> services.scanThreads().execute(() -> { }));
  }

  @Test void modelsHaveResourcesOfTheirOwn() {
    try (ExecutionRuntime runtime = new ExecutionRuntime()) {
      ExecutionRuntime.Lease a = runtime.acquire("a");
      ExecutionRuntime.Lease b = runtime.acquire("b");
      ShardEndpoint ofA = a.resources().endpoint(settings("r2"));
      ShardEndpoint ofB = b.resources().endpoint(settings("r2"));
      assertNotSame(ofA, ofB);
      a.close();
      assertTrue(ShardPools.isClosed(ofA));
      assertFalse(ShardPools.isClosed(ofB));
      assertEquals(1, runtime.openModels());
    }
  }

  @Test void closingTheRuntimeClosesEveryModel() {
    ShardEndpoint pinned;
    ShardEndpoint leased;
    ExecutionRuntime.Lease lease;
    try (ExecutionRuntime runtime = new ExecutionRuntime()) {
      pinned = runtime.pin("p").endpoint(settings("r3"));
      lease = runtime.acquire("l");
      leased = lease.resources().endpoint(settings("r3"));
      runtime.close();
      assertThrows(IllegalStateException.class, () -> runtime.acquire("l"));
    }
    assertTrue(ShardPools.isClosed(pinned));
    assertTrue(ShardPools.isClosed(leased));
    // Releasing after the runtime closed is harmless.
    lease.close();
  }
}
