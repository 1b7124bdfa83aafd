package io.shardset.model;

import org.junit.jupiter.api.Test;

import java.util.StringJoiner;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.twoShards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Tests that {@link ModelParser} rejects invalid models with one message naming the fault. */
class ModelValidationTest {
  @Test void unknownShardOfATable() {
    ModelException e = assertFails(twoShards("""
            {"name": "T", "method": "duplicated", "shards": ["s0", "s9"]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shards': unknown shard 's9'");
    assertEquals("SALES", e.schema());
    assertEquals("T", e.table());
    assertEquals("shards", e.field());
    assertEquals("unknown shard 's9'", e.problem());
  }

  @Test void unknownShardOfARange() {
    assertFails(twoShards("""
            {"name": "E", "method": "range", "shardKey": "D",
             "ranges": [{"shard": "s0", "to": 10}, {"shard": "s9", "from": 10}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 2, key 'shard': unknown shard 's9'");
  }

  @Test void rangeOnAShardThatDoesNotHoldTheTable() {
    assertFails(twoShards("""
            {"name": "E", "method": "range", "shardKey": "D", "shards": "s0",
             "ranges": [{"shard": "s1"}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 1, key 'shard': shard 's1' does not hold this table; its shards are s0");
  }

  @Test void shardListedTwice() {
    assertFails(twoShards("""
            {"name": "T", "method": "duplicated", "shards": ["s1", "s0", "s1"]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shards':"
            + " shard 's1' is listed twice");
  }

  @Test void duplicateShardName() {
    ModelException e = assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:a"},
                        {"name": "s0", "jdbcUrl": "jdbc:h2:mem:b"}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'name':"
            + " duplicate shard name 's0'");
    assertEquals("s0", e.shard());
    assertEquals(null, e.table());
  }

  @Test void duplicateTableName() {
    assertFails(twoShards("""
            {"name": "T", "method": "duplicated"}, {"name": "T", "method": "duplicated"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'name':"
            + " duplicate table name 'T'");
  }

  @Test void tableNamesThatDifferOnlyInCase() {
    assertFails(twoShards("""
            {"name": "Orders", "method": "duplicated"},
            {"name": "ORDERS", "method": "duplicated"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'ORDERS', field 'name':"
            + " table names 'Orders' and 'ORDERS' differ only in case");
  }

  @Test void unknownMethod() {
    assertFails(twoShards("""
            {"name": "T", "method": "hash", "shardKey": "K"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'method':"
            + " unknown method 'hash'; expected one of consistent-hash, range, list,"
            + " duplicated, composite, lookup");
  }

  @Test void missingMethod() {
    assertFails(twoShards("""
            {"name": "T", "shardKey": "K"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'method':"
            + " a value is required");
  }

  @Test void tableWithoutName() {
    assertFails(twoShards("""
            {"method": "duplicated"}"""),
        "Invalid ShardSet model: schema 'SALES', field 'tables':"
            + " entry 1, key 'name': a value is required");
  }

  @Test void rangeWithTwoKeyColumns() {
    assertFails(twoShards("""
            {"name": "E", "method": "range", "shardKey": ["A", "B"],
             "ranges": [{"shard": "s0"}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'shardKey':"
            + " a range table has exactly one shard key column, not 2 (A, B)");
  }

  @Test void shardKeyColumnListedTwice() {
    assertFails(twoShards("""
            {"name": "T", "method": "consistent-hash", "shardKey": ["ID", "id"]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardKey':"
            + " column 'id' is listed twice");
  }

  @Test void missingShardKey() {
    assertFails(twoShards("""
            {"name": "T", "method": "consistent-hash"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardKey':"
            + " a value is required for method 'consistent-hash'");
  }

  @Test void duplicatedTableWithShardKey() {
    assertFails(twoShards("""
            {"name": "C", "method": "duplicated", "shardKey": "K"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'C', field 'shardKey':"
            + " a duplicated table has no shard key");
  }

  @Test void rangesOfATableThatIsNotRange() {
    assertFails(twoShards("""
            {"name": "A", "method": "list", "shardKey": "R",
             "lists": [{"shard": "s0", "default": true}], "ranges": []}"""),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'ranges':"
            + " only range tables have ranges; this table's method is 'list'");
  }

  @Test void rangeTableWithoutRanges() {
    assertFails(twoShards("""
            {"name": "E", "method": "range", "shardKey": "D", "ranges": []}"""),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " expected entries for method 'range'");
  }

  @Test void twoDefaultLists() {
    assertFails(twoShards("""
            {"name": "A", "method": "list", "shardKey": "R",
             "lists": [{"shard": "s0", "values": ["EU"]},
                       {"shard": "s0", "default": true},
                       {"shard": "s1", "default": true}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'lists':"
            + " entry 3, key 'default': entry 2 is the default already;"
            + " a list table has at most one");
  }

  @Test void listEntryWithValuesAndDefault() {
    assertFails(twoShards("""
            {"name": "A", "method": "list", "shardKey": "R",
             "lists": [{"shard": "s0", "values": ["EU"], "default": true}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'lists':"
            + " entry 1: an entry has 'values' or is the default, not both");
  }

  @Test void listEntryWithoutValues() {
    assertFails(twoShards("""
            {"name": "A", "method": "list", "shardKey": "R",
             "lists": [{"shard": "s0", "default": false}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'lists':"
            + " entry 1, key 'values': a value is required unless the entry is the default");
  }

  @Test void nullListValue() {
    assertFails(twoShards("""
            {"name": "A", "method": "list", "shardKey": "R",
             "lists": [{"shard": "s0", "values": ["EU", null]}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'A', field 'lists':"
            + " entry 1, key 'values': expected strings, numbers or booleans, got null"
            + " in the list");
  }

  @Test void consistentHashShardsThatAreNotTheirShardspace() {
    assertFails(twoShards("""
            {"name": "T", "method": "consistent-hash", "shardKey": "K", "shards": ["s0"]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shards':"
            + " a consistent-hash table spans every shard of its shardspace, so 'shards' must"
            + " be s0, s1 (all of shardspace 'default') or be left out, not s0");
  }

  @Test void consistentHashShardsInTwoShardspaces() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                        {"name": "g0", "jdbcUrl": "jdbc:h2:mem:g0", "shardspace": "gold"}],
             "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "K",
                         "shards": ["s0", "g0"]}]}""",
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shards':"
            + " a consistent-hash table lives in one shardspace, but s0 is in 'default',"
            + " g0 is in 'gold'");
  }

  @Test void shardspaceWithoutShards() {
    assertFails(twoShards("""
            {"name": "T", "method": "consistent-hash", "shardKey": "K",
             "shardspace": "gold"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardspace':"
            + " shardspace 'gold' has no shards");
  }

  @Test void defaultShardspaceWithoutShards() {
    assertFails("""
            {"shards": [{"name": "g0", "jdbcUrl": "jdbc:h2:mem:g0", "shardspace": "gold"}],
             "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "K"}]}""",
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardspace':"
            + " shardspace 'default' has no shards; set the table's shardspace or shards");
  }

  @Test void shardOutsideTheTablesShardspace() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                        {"name": "g0", "jdbcUrl": "jdbc:h2:mem:g0", "shardspace": "gold"}],
             "tables": [{"name": "C", "method": "duplicated", "shardspace": "gold",
                         "shards": ["g0", "s0"]}]}""",
        "Invalid ShardSet model: schema 'SALES', table 'C', field 'shards':"
            + " shard 's0' is in shardspace 'default', not in the table's shardspace 'gold'");
  }

  @Test void missingEnvironmentVariable() {
    ModelException e = assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                        {"name": "s1", "jdbcUrl": "jdbc:postgresql://h/s1",
                         "jdbcPassword": "${env:NO_SUCH_PASSWORD}"}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's1', field 'jdbcPassword':"
            + " environment variable NO_SUCH_PASSWORD is not set");
    assertEquals("s1", e.shard());
    assertEquals("jdbcPassword", e.field());
  }

  @Test void unterminatedPlaceholder() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:${env:HOME/x"}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'jdbcUrl':"
            + " placeholder ${env:... is not closed: write ${env:NAME} or ${modelDir}");
    // After a placeholder that is closed, and without showing what follows: it may be secret.
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0",
                         "jdbcPassword": "${env:HOME}${env:TOP_SECRET"}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'jdbcPassword':"
            + " placeholder ${env:... is not closed: write ${env:NAME} or ${modelDir}");
  }

  @Test void modelDirWithoutBaseDirectory() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:${modelDir}/s0"}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'jdbcUrl':"
            + " ${modelDir} is unknown: the operand has no baseDirectory");
  }

  @Test void unknownTableKeyDiffersOnlyInCase() {
    assertFails(twoShards("""
            {"name": "T", "method": "consistent-hash", "shardkey": ["K"]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardkey':"
            + " unknown key; did you mean 'shardKey'?");
  }

  @Test void unknownTableKeyWithATypo() {
    assertFails(twoShards("""
            {"name": "T", "method": "duplicated", "physicalNmae": "t"}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'physicalNmae':"
            + " unknown key; did you mean 'physicalName'?");
  }

  @Test void unknownShardKeyWithATypo() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcURL": "jdbc:h2:mem:s0"}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'jdbcURL':"
            + " unknown key; did you mean 'jdbcUrl'?");
  }

  @Test void unknownKeyOfAShardWithoutName() {
    assertFails("""
            {"shards": [{"nmae": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}]}""",
        "Invalid ShardSet model: schema 'SALES', field 'shards':"
            + " entry 1, key 'nmae': unknown key; did you mean 'name'?");
  }

  @Test void unknownKeyOfARange() {
    assertFails(twoShards("""
            {"name": "E", "method": "range", "shardKey": "D",
             "ranges": [{"shard": "s0", "form": 1}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 1, key 'form': unknown key; did you mean 'from'?");
  }

  @Test void unknownOperandKeyWithoutHint() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}], "replicas": 2}""",
        "Invalid ShardSet model: schema 'SALES', field 'replicas':"
            + " unknown key; expected one of shards, chunks, chunkMap, parallelism, tables,"
            + " reshard, transactions,"
            + " writeWaitMillis, checkShards, scatter, maxShards, sequences");
  }

  @Test void stringWhereANumberIsExpected() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}], "chunks": "240"}""",
        "Invalid ShardSet model: schema 'SALES', field 'chunks':"
            + " expected an integer from 1 to 1048576, got a string");
  }

  @Test void tooManyChunks() {
    // Two billion chunks used to be accepted, and building the chunk map ran out of memory.
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}], "chunks": 2000000000}""",
        "Invalid ShardSet model: schema 'SALES', field 'chunks':"
            + " expected an integer from 1 to 1048576, got 2000000000");
  }

  @Test void tooManyDefaultChunks() {
    // 120 chunks per shard by default: 8739 shards would make 1048680 chunks.
    final StringJoiner shards = new StringJoiner(", ", "[", "]");
    for (int i = 0; i < 8739; i++) {
      shards.add("{\"name\": \"s" + i + "\", \"jdbcUrl\": \"jdbc:h2:mem:s" + i
          + "\", \"shardspace\": \"wide\"}");
    }
    assertFails("{\"shards\": " + shards + "}",
        "Invalid ShardSet model: schema 'SALES', field 'chunks': shardspace 'wide' has 8739"
            + " shards, and 120 chunks per shard make 1048680 chunks, more than 1048576;"
            + " set 'chunks' to at most 1048576");
  }

  @Test void tooManyChunkMapEntries() {
    // 2^20 + 1 entries: [0, 1), [1, 4096), then steps of 4096 up to 2^32.
    final StringJoiner entries = new StringJoiner(", ", "[", "]");
    entries.add(entry(0, 1));
    entries.add(entry(1, 4096));
    for (long from = 4096; from < (1L << 32); from += 4096) {
      entries.add(entry(from, from + 4096));
    }
    assertFails("{\"shards\": [{\"name\": \"s0\", \"jdbcUrl\": \"jdbc:h2:mem:s0\"}],"
            + " \"chunkMap\": " + entries + "}",
        "Invalid ShardSet model: schema 'SALES', field 'chunkMap': 1048577 entries,"
            + " more than the 1048576 a chunk map may have");
  }

  private static String entry(long from, long to) {
    return "{\"from\": " + from + ", \"to\": " + to + ", \"shard\": \"s0\"}";
  }

  @Test void numberOutOfRange() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}], "parallelism": 0}""",
        "Invalid ShardSet model: schema 'SALES', field 'parallelism':"
            + " expected an integer from 1 to 2147483647, got 0");
  }

  @Test void numberWhereAStringIsExpected() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": 5432}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'jdbcUrl':"
            + " expected a string, got a number");
  }

  @Test void numberInAShardKey() {
    assertFails(twoShards("""
            {"name": "T", "method": "consistent-hash", "shardKey": ["K", 1]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'T', field 'shardKey':"
            + " expected a list of strings, got a number in it");
  }

  @Test void objectWhereAListIsExpected() {
    assertFails("""
            {"shards": {"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}}""",
        "Invalid ShardSet model: schema 'SALES', field 'shards':"
            + " expected a list of objects, got an object");
  }

  @Test void booleanRangeBound() {
    assertFails(twoShards("""
            {"name": "E", "method": "range", "shardKey": "D",
             "ranges": [{"shard": "s0", "to": true}]}"""),
        "Invalid ShardSet model: schema 'SALES', table 'E', field 'ranges':"
            + " entry 1, key 'to': expected a number or a string, got a boolean");
  }

  @Test void missingShards() {
    assertFails("""
            {"tables": []}""",
        "Invalid ShardSet model: schema 'SALES', field 'shards': a value is required");
  }

  @Test void passwordsStayOutOfMessages() {
    ModelException e = assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0", "jdbcPassword": 12345}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'jdbcPassword':"
            + " expected a string, got a number");
    assertFalse(e.getMessage().contains("12345"));
  }
}
