package io.shardset.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code reshard} object that records a move in progress. */
class ReshardModelTest {
  /** Three shards; s2 holds no range yet; [0, 2^31) on s0, the rest on s1. */
  private static String model(String reshard) {
    return String.format(Locale.ROOT, """
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                    {"name": "s1", "jdbcUrl": "jdbc:h2:mem:s1"},
                    {"name": "s2", "jdbcUrl": "jdbc:h2:mem:s2"}],
         "chunkMap": [{"from": 0, "to": 1073741824, "shard": "s0"},
                      {"from": 1073741824, "to": 2147483648, "shard": "s0"},
                      {"from": 2147483648, "to": 4294967296, "shard": "s1"}],
         "tables": [{"name": "T", "method": "consistent-hash", "shardKey": ["K"]},
                    {"name": "R", "method": "duplicated"}],
         "reshard": %s}""", reshard);
  }

  @Test void copyPhase() {
    ShardSetModel model = parse(model("""
        {"shardspace": "default", "phase": "copy", "operation": "add-shard s2",
         "moves": [{"from": 1073741824, "to": 2147483648, "source": "s0", "target": "s2"}]}"""));
    ReshardSpec reshard = model.reshard();
    assertEquals(ReshardSpec.Phase.COPY, reshard.phase());
    assertEquals(List.of(new ReshardSpec.MoveSpec(1073741824L, 2147483648L, "s0", "s2")),
        reshard.moves());
    assertEquals("add-shard s2", reshard.operation());
    assertNull(reshard.leaving());
    assertTrue(reshard.readsMoveTables("s0"));
    assertFalse(reshard.readsMoveTables("s2"));
    assertFalse(reshard.readsMoveTables("s1"));
    assertTrue(reshard.carries(model.tables().get(0)));
    assertFalse(reshard.carries(model.tables().get(1)));
    assertEquals("s0", reshard.moveOf(1073741824L).source());
    assertNull(reshard.moveOf(1073741823L));
  }

  @Test void switchedPhaseNeedsTheTargetInTheChunkMap() {
    assertFails(model("""
        {"shardspace": "default", "phase": "switched",
         "moves": [{"from": 1073741824, "to": 2147483648, "source": "s0", "target": "s2"}]}"""),
        "Invalid ShardSet model: schema 'SALES', field 'reshard.moves': entry 1: the chunk map has no entry"
            + " [1073741824, 2147483648) on 's2', which phase 'switched' needs");
  }

  @Test void noReshard() {
    assertNull(parse(model("null").replace(",\n \"reshard\": null", "")).reshard());
  }

  @Test void unknownPhase() {
    assertFails(model("""
        {"shardspace": "default", "phase": "copying",
         "moves": [{"from": 0, "to": 1073741824, "source": "s0", "target": "s2"}]}"""),
        "Invalid ShardSet model: schema 'SALES', field 'reshard.phase': unknown phase 'copying'; phases are copy,"
            + " switched");
  }

  @Test void unknownShard() {
    assertFails(model("""
        {"shardspace": "default", "phase": "copy",
         "moves": [{"from": 0, "to": 1073741824, "source": "s0", "target": "s9"}]}"""),
        "Invalid ShardSet model: schema 'SALES', field 'reshard.moves': entry 1, key 'target': unknown shard 's9' in"
            + " the shardspace");
  }

  @Test void shardBothSourceAndTarget() {
    assertFails(model("""
        {"shardspace": "default", "phase": "copy",
         "moves": [{"from": 0, "to": 1073741824, "source": "s0", "target": "s2"},
                   {"from": 2147483648, "to": 4294967296, "source": "s1", "target": "s0"}]}"""),
        "Invalid ShardSet model: schema 'SALES', field 'reshard.moves': shard 's0' is both a source and a target");
  }
}
