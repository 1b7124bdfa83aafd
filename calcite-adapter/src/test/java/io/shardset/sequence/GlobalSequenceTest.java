package io.shardset.sequence;

import io.shardset.model.SequenceSpec;
import io.shardset.testing.PostgresServer;
import io.shardset.transaction.LogDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Global sequences over one store shared by several processes (each a registry of its own):
 * no value twice across processes, values increasing within each, blocks of the declared
 * size, and a sequence out of values fails without handing one out twice.
 */
class GlobalSequenceTest {
  private static final int PROCESSES = 3;
  private static final int THREADS = 4;
  private static final int VALUES = 1_500;

  @TempDir Path folder;

  @Test void processesNeverShareAValueOnH2() throws Exception {
    neverShared(LogDatabase.h2File(folder.resolve("store")));
  }

  @Test void processesNeverShareAValueOnPostgres() throws Exception {
    PostgresServer.require();
    neverShared(new LogDatabase(PostgresServer.url(
        PostgresServer.createDatabases("sequences", 1).get(0)), PostgresServer.USER, "", null));
  }

  /**
   * Three processes with four threads each take 1,500 values apiece from a sequence of blocks
   * of 100 starting at 1,000.
   */
  private static void neverShared(LogDatabase store) throws Exception {
    final SequenceSpec spec = new SequenceSpec("IDS", 1_000, 100);
    final List<GlobalSequence> processes = new ArrayList<>();
    for (int p = 0; p < PROCESSES; p++) {
      processes.add(new SequenceRegistry().of(store, "S", spec));
    }
    final ExecutorService threads = Executors.newFixedThreadPool(PROCESSES * THREADS);
    try {
      final List<Future<List<Long>>> taken = new ArrayList<>();
      for (GlobalSequence process : processes) {
        for (int t = 0; t < THREADS; t++) {
          taken.add(threads.submit((Callable<List<Long>>) () -> {
            final List<Long> values = new ArrayList<>();
            for (int i = 0; i < VALUES; i++) {
              values.add(process.next());
            }
            return values;
          }));
        }
      }
      final Set<Long> all = new HashSet<>();
      for (Future<List<Long>> future : taken) {
        final List<Long> values = future.get();
        for (int i = 1; i < values.size(); i++) {
          assertTrue(values.get(i) > values.get(i - 1), "a thread's values increase");
        }
        for (long value : values) {
          assertTrue(all.add(value), "value " + value + " handed out twice");
          assertTrue(value >= 1_000, "value " + value + " before the start");
        }
      }
      assertEquals(PROCESSES * THREADS * VALUES, all.size());
      // Each process took whole blocks: together at most one unused block per process.
      final long highest = all.stream().mapToLong(Long::longValue).max().orElseThrow();
      assertTrue(highest < 1_000 + all.size() + PROCESSES * 100L, "highest " + highest);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test void aSequenceOutOfValuesFailsNamingIt() throws Exception {
    final LogDatabase store = LogDatabase.h2File(folder.resolve("store"));
    final GlobalSequence sequence = new SequenceRegistry().of(store, "S",
        new SequenceSpec("LAST", Long.MAX_VALUE - 3, 2));
    assertEquals(Long.MAX_VALUE - 3, sequence.next());
    assertEquals(Long.MAX_VALUE - 2, sequence.next());
    final SQLException exhausted = assertThrows(SQLException.class, sequence::next);
    assertEquals("cannot take a block of sequence S.LAST from " + store + ": sequence S.LAST"
        + " has no values left (its next value is " + (Long.MAX_VALUE - 1) + ")",
        exhausted.getMessage());
    assertEquals("2200H", exhausted.getSQLState());
  }
}
