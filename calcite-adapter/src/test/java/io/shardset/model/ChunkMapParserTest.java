package io.shardset.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests that a model's {@code chunkMap} must cover each shardspace's hash space exactly. */
class ChunkMapParserTest {
  private static String model(String chunkMap, String tables) {
    return String.format(Locale.ROOT, """
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                    {"name": "s1", "jdbcUrl": "jdbc:h2:mem:s1"},
                    {"name": "g0", "jdbcUrl": "jdbc:h2:mem:g0", "shardspace": "gold"}],
         "chunks": 4,
         "chunkMap": [%s],
         "tables": [%s]}""", chunkMap, tables);
  }

  private static String model(String chunkMap) {
    return model(chunkMap, "");
  }

  @Test void acceptsEntriesInAnyOrderPerShardspace() {
    ShardSetModel model = parse(model("""
        {"from": 2147483648, "to": 4294967296, "shard": "s0"},
        {"from": 0, "to": 4294967296, "shard": "g0"},
        {"from": 0, "to": 1000, "shard": "s1"},
        {"from": 1000, "to": 2147483648, "shard": "s0"}"""));
    assertEquals(List.of(new ChunkMapSpec(2147483648L, 4294967296L, "s0"),
            new ChunkMapSpec(0, 4294967296L, "g0"),
            new ChunkMapSpec(0, 1000, "s1"),
            new ChunkMapSpec(1000, 2147483648L, "s0")),
        model.chunkMap());
    assertEquals(List.of(new ChunkMapSpec(0, 4294967296L, "g0")), model.chunkMap("gold"));
    assertEquals(4, model.chunks());
  }

  @Test void gap() {
    assertFails(model("""
            {"from": 0, "to": 100, "shard": "s0"},
            {"from": 200, "to": 4294967296, "shard": "s1"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap': shardspace 'default':"
            + " no entry covers [100, 200), between entry 1 [0, 100) on 's0'"
            + " and entry 2 [200, 4294967296) on 's1'");
  }

  @Test void overlap() {
    assertFails(model("""
            {"from": 200, "to": 4294967296, "shard": "s1"},
            {"from": 0, "to": 300, "shard": "s0"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap': shardspace 'default':"
            + " entry 2 [0, 300) on 's0' and entry 1 [200, 4294967296) on 's1' overlap");
  }

  @Test void endBeforeTheEndOfTheHashSpace() {
    assertFails(model("""
            {"from": 0, "to": 100, "shard": "s0"},
            {"from": 100, "to": 4294967295, "shard": "s1"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap': shardspace 'default':"
            + " no entry covers [4294967295, 4294967296); the highest is"
            + " entry 2 [100, 4294967295) on 's1'");
  }

  @Test void startAfterZero() {
    assertFails(model("""
            {"from": 5, "to": 4294967296, "shard": "s0"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap': shardspace 'default':"
            + " no entry covers [0, 5); the lowest is entry 1 [5, 4294967296) on 's0'");
  }

  @Test void endBeyondTheHashSpace() {
    assertFails(model("""
            {"from": 0, "to": 4294967297, "shard": "s0"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap':"
            + " entry 1, key 'to': expected an integer from 0 to 4294967296, got 4294967297");
  }

  @Test void emptyEntry() {
    assertFails(model("""
            {"from": 0, "to": 100, "shard": "s0"},
            {"from": 100, "to": 100, "shard": "s1"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap':"
            + " entry 2: 'from' (100) must be less than 'to' (100)");
  }

  @Test void unknownShard() {
    assertFails(model("""
            {"from": 0, "to": 4294967296, "shard": "s9"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap':"
            + " entry 1, key 'shard': unknown shard 's9'");
  }

  @Test void eachShardspaceIsCoveredOnItsOwn() {
    assertFails(model("""
            {"from": 0, "to": 4294967296, "shard": "s0"},
            {"from": 0, "to": 2147483648, "shard": "g0"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap': shardspace 'gold':"
            + " no entry covers [2147483648, 4294967296); the highest is"
            + " entry 2 [0, 2147483648) on 'g0'");
  }

  @Test void shardspaceOfAConsistentHashTableWithoutEntries() {
    assertFails(model("""
            {"from": 0, "to": 4294967296, "shard": "s0"}""", """
            {"name": "T", "method": "consistent-hash", "shardKey": "K", "shardspace": "gold"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap':"
            + " shardspace 'gold' has no entries, but consistent-hash table 'T' uses it");
  }

  @Test void missingBound() {
    assertFails(model("""
            {"to": 4294967296, "shard": "s0"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap':"
            + " entry 1, key 'from': a value is required");
  }
}
