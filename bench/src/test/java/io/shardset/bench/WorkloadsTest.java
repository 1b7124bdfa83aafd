package io.shardset.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests the pure parts of {@link Workloads}. */
class WorkloadsTest {
  @Test void keysAreGroupedByTheirShardInFirstSeenOrder() {
    final Map<Integer, List<Long>> byShard =
        Workloads.byShard(List.of(10L, 3L, 7L, 20L, 13L, 3L), key -> (int) (key % 4));
    assertEquals(Map.of(2, List.of(10L), 3, List.of(3L, 7L, 3L), 0, List.of(20L),
        1, List.of(13L)), byShard);
    assertEquals(List.of(2, 3, 0, 1), List.copyOf(byShard.keySet()));
  }

  @Test void theInListHasOnePlaceholderPerKey() {
    assertEquals(Workloads.IN_KEYS, Workloads.IN_LIST.chars().filter(c -> c == '?').count());
  }
}
