package io.shardset.routing;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

import static io.shardset.routing.RoutingAsserts.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link LookupRouter} over a directory held in a map. */
class LookupRouterTest {
  private final Map<Comparable<?>, String> entries = new ConcurrentHashMap<>(Map.of(
      new BigDecimal(1), "s0", new BigDecimal(2), "s2", new BigDecimal(3), "s2"));
  private final List<Comparable<?>> lookedUp = new ArrayList<>();
  private final List<Comparable<?>> invalidated = new ArrayList<>();
  private final Directory directory = new Directory() {
    @Override public Optional<String> shardOf(Comparable<?> key) {
      lookedUp.add(key);
      return Optional.ofNullable(entries.get(key));
    }

    @Override public void invalidate(Comparable<?> key) {
      invalidated.add(key);
    }
  };
  private final LookupRouter router =
      new LookupRouter("TENANT_DOCS", KeyType.NUMBER, directory, List.of("s0", "s1", "s2"));

  @Test void shardOfAsTheDirectorySays() {
    assertEquals(OptionalInt.of(0), router.shardOf(List.of(1)));
    assertEquals(OptionalInt.of(2), router.shardOf(List.of(2L)));
    assertEquals(OptionalInt.empty(), router.shardOf(List.of(9)));
    assertEquals(OptionalInt.empty(), router.shardOf(Arrays.asList((Object) null)));
    entries.put(new BigDecimal(1), "s1"); // the tenant moved
    assertEquals(OptionalInt.of(1), router.shardOf(List.of(1)));
  }

  @Test void pointsReachTheirShardsOnly() {
    assertEquals(shards(0), router.shardsFor(List.of(KeyDomain.point(new BigDecimal(1)))));
    assertEquals(shards(0, 2), router.shardsFor(List.of(KeyDomain.points(
        List.of(new BigDecimal(1), new BigDecimal(2), new BigDecimal(3))))));
    assertEquals(shards(), router.shardsFor(List.of(KeyDomain.point(new BigDecimal(9)))));
    assertEquals(shards(), router.shardsFor(List.of(KeyDomain.none())));
    assertEquals(shards(), router.shardsFor(List.of(KeyDomain.nullOnly())));
  }

  @Test void rangesReachEveryShardWithoutLookingUp() {
    assertEquals(shards(0, 1, 2), router.shardsFor(List.of(
        KeyDomain.range(new BigDecimal(1), true, new BigDecimal(3), true))));
    assertEquals(shards(0, 1, 2), router.shardsFor(List.of(KeyDomain.all())));
    assertEquals(List.of(), lookedUp);
  }

  @Test void unknownShardIsAnErrorNamingKeyShardAndTable() {
    entries.put(new BigDecimal(5), "s7");
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> router.shardOf(List.of(5)));
    assertEquals("the directory of table TENANT_DOCS places key 5 on shard 's7', which does"
        + " not hold the table; its shards are s0, s1, s2", e.getMessage());
  }

  @Test void isNotStableAndInvalidatesNormalizedKeys() {
    assertFalse(router.isStable());
    router.invalidate(4L);
    router.invalidate(null);
    assertEquals(List.of(new BigDecimal(4)), invalidated);
  }
}
