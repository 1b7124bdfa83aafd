package io.shardset.reshard;

import io.shardset.model.ChunkMapSpec;
import io.shardset.model.ModelParser;
import io.shardset.model.ReshardSpec;
import io.shardset.model.ShardSetModel;
import io.shardset.routing.ChunkMap;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plans of resharding operations, without databases. */
class ReshardPlannerTest {
  private static final long SPACE = ChunkMap.HASH_SPACE;

  private static ShardSetModel model(int shards, String extraTables, String chunkMap) {
    StringBuilder json = new StringBuilder("{\"shards\": [");
    for (int i = 0; i < shards; i++) {
      json.append(i == 0 ? "" : ", ").append("{\"name\": \"s").append(i)
          .append("\", \"jdbcUrl\": \"jdbc:h2:mem:s").append(i).append("\"}");
    }
    json.append("], \"chunks\": 8, ").append(chunkMap == null ? "" : chunkMap + ", ")
        .append("\"tables\": [{\"name\": \"T\", \"method\": \"consistent-hash\",")
        .append(" \"shardKey\": [\"K\"]}, {\"name\": \"R\", \"method\": \"duplicated\"}")
        .append(extraTables).append("]}");
    try {
      Map<String, Object> operand = new ObjectMapper().readValue(json.toString(),
          new TypeReference<HashMap<String, Object>>() { });
      return ModelParser.parse("S", operand, name -> null);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static ShardSetModel model(int shards) {
    return model(shards, "", null);
  }

  @Test void addShardTakesAnEqualShareFromTheDefaultPlacement() {
    ShardSetModel model = model(4);
    Map<String, Object> shard = new LinkedHashMap<>();
    shard.put("jdbcUrl", "jdbc:h2:mem:s4");
    ReshardPlan plan = ReshardPlanner.plan(model,
        new Operation.AddShard("s4", shard, null));
    assertEquals("add-shard s4", plan.operation());
    assertEquals(Map.of("name", "s4", "jdbcUrl", "jdbc:h2:mem:s4"), plan.addedShard());
    assertEquals("s4", plan.addedShardName());
    // 8 chunks on 4 shards: one per entry, the default placement written out.
    assertEquals(8, plan.chunkMapBefore().size());
    for (int c = 0; c < 8; c++) {
      assertEquals(new ChunkMapSpec(ChunkMap.chunkStart(c, 8), ChunkMap.chunkStart(c + 1, 8),
          "s" + c % 4), plan.chunkMapBefore().get(c));
    }
    // The share is 1/5 of the space; whole chunks of 1/8 get the nearest: two of them.
    assertEquals(2, plan.moves().size());
    assertEquals(0.25, plan.movedFraction(), 1e-9);
    for (ReshardSpec.MoveSpec move : plan.moves()) {
      assertEquals("s4", move.target());
      assertTrue(plan.chunkMapAfter().contains(
          new ChunkMapSpec(move.from(), move.to(), "s4")));
    }
    assertEquals(plan.chunkMapBefore().size(), plan.chunkMapAfter().size());
  }

  @Test void addShardChecksNameAndShardspace() {
    ShardSetModel model = model(2);
    assertEquals("shard 's1' exists already", assertThrows(IllegalArgumentException.class,
        () -> ReshardPlanner.plan(model, new Operation.AddShard("s1", Map.of(), null)))
        .getMessage());
    assertEquals("shardspace 'eu' has no shards; add-shard adds a shard to an existing"
        + " shardspace", assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(model, new Operation.AddShard("s2", Map.of(), "eu")))
            .getMessage());
    assertEquals("the new shard is named 's2', but its model object names 'x'",
        assertThrows(IllegalArgumentException.class, () -> ReshardPlanner.plan(model,
            new Operation.AddShard("s2", Map.of("name", "x"), null))).getMessage());
  }

  @Test void removeShardSpreadsItsRanges() {
    ReshardPlan plan = ReshardPlanner.plan(model(4), new Operation.RemoveShard("s3"));
    assertEquals("s3", plan.leaving());
    assertEquals(List.of(new ReshardSpec.MoveSpec(ChunkMap.chunkStart(3, 8),
            ChunkMap.chunkStart(4, 8), "s3", "s0"),
        new ReshardSpec.MoveSpec(ChunkMap.chunkStart(7, 8), SPACE, "s3", "s1")),
        plan.moves());
    assertTrue(plan.chunkMapAfter().stream().noneMatch(e -> e.shard().equals("s3")));
  }

  @Test void removeShardRefusesTablesThatNameIt() {
    ShardSetModel ranged = model(3, ", {\"name\": \"G\", \"method\": \"range\", \"shardKey\":"
        + " [\"K\"], \"ranges\": [{\"shard\": \"s0\", \"to\": 10}, {\"shard\": \"s2\","
        + " \"from\": 10}]}", null);
    assertEquals("range table 'G' places its range from 10 up on shard 's2'; give the range to"
        + " another shard before removing it", assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(ranged, new Operation.RemoveShard("s2"))).getMessage());
    ShardSetModel alone = model(3, ", {\"name\": \"D\", \"method\": \"duplicated\","
        + " \"shards\": [\"s2\"]}", null);
    assertEquals("duplicated table 'D' lives on shard 's2' only; give it another shard before"
        + " removing this one", assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(alone, new Operation.RemoveShard("s2"))).getMessage());
    assertEquals("shard 's0' is the only shard of shardspace 'default'; it cannot leave",
        assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(model(1), new Operation.RemoveShard("s0")))
            .getMessage());
    assertEquals("unknown shard 's9'", assertThrows(IllegalArgumentException.class,
        () -> ReshardPlanner.plan(model(2), new Operation.RemoveShard("s9"))).getMessage());
  }

  @Test void moveRangeMovesOneEntryOfAnExplicitMap() {
    ShardSetModel model = model(3, "", "\"chunkMap\": [{\"from\": 0, \"to\": 100, \"shard\":"
        + " \"s0\"}, {\"from\": 100, \"to\": 4294967296, \"shard\": \"s1\"}]");
    ReshardPlan plan = ReshardPlanner.plan(model, new Operation.MoveRange(100, "s2"));
    assertEquals(List.of(new ReshardSpec.MoveSpec(100, SPACE, "s1", "s2")), plan.moves());
    assertEquals(List.of(new ChunkMapSpec(0, 100, "s0"), new ChunkMapSpec(100, SPACE, "s2")),
        plan.chunkMapAfter());
    assertEquals("hash range [0, 100) is on shard 's0' already",
        assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(model, new Operation.MoveRange(0, "s0"))).getMessage());
    assertEquals("no hash range of shardspace 'default' starts at 5",
        assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(model, new Operation.MoveRange(5, "s0"))).getMessage());
  }

  @Test void splitRangeMovesNoRow() {
    ShardSetModel model = model(2, "", "\"chunkMap\": [{\"from\": 0, \"to\": 100, \"shard\":"
        + " \"s0\"}, {\"from\": 100, \"to\": 4294967296, \"shard\": \"s1\"}]");
    ReshardPlan middle = ReshardPlanner.plan(model, new Operation.SplitRange(0, null));
    assertEquals(List.of(), middle.moves());
    assertEquals(List.of(new ChunkMapSpec(0, 50, "s0"), new ChunkMapSpec(50, 100, "s0"),
        new ChunkMapSpec(100, SPACE, "s1")), middle.chunkMapAfter());
    ReshardPlan at = ReshardPlanner.plan(model, new Operation.SplitRange(0, 7L));
    assertEquals(new ChunkMapSpec(0, 7, "s0"), at.chunkMapAfter().get(0));
    assertEquals("cannot split [0, 100) at 100: the point must lie strictly inside the range",
        assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(model, new Operation.SplitRange(0, 100L))).getMessage());
    assertNull(at.leaving());
  }

  @Test void refusesWhileAMoveIsInProgress() {
    ShardSetModel model = model(2, "", "\"chunkMap\": [{\"from\": 0, \"to\": 100, \"shard\":"
        + " \"s0\"}, {\"from\": 100, \"to\": 4294967296, \"shard\": \"s1\"}], \"reshard\": {"
        + "\"shardspace\": \"default\", \"phase\": \"copy\", \"operation\": \"move-chunk 0 s1\","
        + " \"moves\": [{\"from\": 0, \"to\": 100, \"source\": \"s0\", \"target\": \"s1\"}]}");
    assertEquals("schema 'S' has a move in progress (move-chunk 0 s1, phase copy); resume it"
        + " before planning another", assertThrows(IllegalArgumentException.class,
            () -> ReshardPlanner.plan(model, new Operation.SplitRange(0, null))).getMessage());
  }
}
