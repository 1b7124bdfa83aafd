package io.shardset.execution;

import io.shardset.execution.RowReader.ColumnKind;
import io.shardset.testing.CountingShards;
import io.shardset.testing.PostgresServer;
import io.shardset.testing.TestPools;

import org.apache.calcite.linq4j.Enumerator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How scans read PostgreSQL shards, whose driver streams only inside a transaction: a query
 * that fixes the shard key reads its few rows in autocommit mode (no transaction to end), and
 * falls back to streaming, without repeating a row, when there are more than one fetch; any
 * other query streams in a transaction from the start.
 */
class PostgresShardReadTest {
  private static final RowReader ID = RowReader.of(List.of(ColumnKind.BIGINT));
  private static final String SQL = "select id from t where id <= ?";
  private static List<String> databases = List.of();
  private static CountingShards shards;

  @BeforeAll static void createShards() throws SQLException {
    PostgresServer.require();
    databases = PostgresServer.createDatabases("read", 2);
    List<ShardConnectionSettings> settings = new ArrayList<>();
    for (int i = 0; i < databases.size(); i++) {
      settings.add(new ShardConnectionSettings("p" + i, PostgresServer.url(databases.get(i)),
          PostgresServer.USER, "", null));
    }
    shards = CountingShards.of(settings);
    shards.executeOnAll("create table t(id bigint primary key)",
        "insert into t select x from generate_series(1, 2500) x");
  }

  @AfterAll static void dropShards() throws SQLException {
    if (shards != null) {
      shards.close();
    }
    PostgresServer.drop(databases);
  }

  private static List<Long> read(List<String> shardNames, long upTo, boolean fewRowsExpected) {
    shards.resetCounters();
    List<ShardRequest> requests = shardNames.stream()
        .map(name -> new ShardRequest(shards.endpoint(name), SQL, List.of(upTo))).toList();
    List<Long> ids = new ArrayList<>();
    try (Enumerator<Object[]> scan = ParallelScan.concat(requests, ID,
        TestPools.scanOptions(requests.size()).withFewRowsExpected(fewRowsExpected))) {
      while (scan.moveNext()) {
        ids.add((Long) scan.current()[0]);
      }
    }
    assertEquals(CountingShards.Open.NOTHING, shards.openNow());
    return ids.stream().sorted().toList();
  }

  private static List<Long> oneTo(long n) {
    return IntStream.rangeClosed(1, (int) n).mapToObj(i -> (long) i).toList();
  }

  private static CountingShards.Execution execution(long upTo, boolean autoCommit) {
    return new CountingShards.Execution(SQL, List.of(upTo), 1000, 0, autoCommit);
  }

  @Test void endpointsKnowPostgresStreamsOnlyInATransaction() {
    assertTrue(shards.endpoint("p0").streamsInTransactionOnly());
  }

  @Test void fewRowsAreReadInAutocommitMode() {
    assertEquals(oneTo(7), read(List.of("p0"), 7, true));
    assertEquals(List.of(execution(7, true)), shards.executions("p0"));
  }

  @Test void exactlyOneFetchOfRowsIsStillReadInAutocommitMode() {
    assertEquals(oneTo(1000), read(List.of("p1"), 1000, true));
    assertEquals(List.of(execution(1000, true)), shards.executions("p1"));
  }

  @Test void moreRowsThanOneFetchAreReadAgainStreamingAndNoneTwice() {
    assertEquals(oneTo(1001), read(List.of("p0"), 1001, true));
    assertEquals(List.of(execution(1001, true), execution(1001, false)),
        shards.executions("p0"));

    List<Long> both = read(List.of("p0", "p1"), 2500, true);
    List<Long> expected = new ArrayList<>(oneTo(2500));
    expected.addAll(oneTo(2500));
    assertEquals(expected.stream().sorted().toList(), both);
    for (String shard : List.of("p0", "p1")) {
      assertEquals(List.of(execution(2500, true), execution(2500, false)),
          shards.executions(shard), shard);
    }
  }

  @Test void otherQueriesStreamInATransactionFromTheStart() {
    assertEquals(oneTo(5), read(List.of("p1"), 5, false));
    assertEquals(List.of(execution(5, false)), shards.executions("p1"));
  }
}
