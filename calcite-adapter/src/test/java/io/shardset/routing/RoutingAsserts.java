package io.shardset.routing;

import org.junit.jupiter.api.function.Executable;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Assertions shared by the routing tests. */
final class RoutingAsserts {
  private RoutingAsserts() {
  }

  /** Asserts that running {@code executable} throws IllegalArgumentException with this message. */
  static void assertIllegal(String message, Executable executable) {
    assertEquals(message,
        assertThrows(IllegalArgumentException.class, executable).getMessage());
  }

  /** The set of these shards. */
  static BitSet shards(int... shards) {
    BitSet set = new BitSet();
    for (int shard : shards) {
      set.set(shard);
    }
    return set;
  }
}
