package io.shardset.model;

import org.apache.calcite.model.JsonView;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.shardset.model.TestOperands.ENV;
import static io.shardset.model.TestOperands.operand;
import static io.shardset.model.TestOperands.parse;
import static io.shardset.model.TestOperands.twoShards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests that {@link ModelParser} reads valid models into the values they mean. */
class ModelParserTest {
  /** The model of the contract (spec/model.md), which must keep parsing. */
  private static final String CONTRACT_EXAMPLE = """
      {
        "shards": [
          {"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0", "jdbcUser": "sa", "jdbcPassword": ""},
          {"name": "s1", "jdbcUrl": "jdbc:postgresql://127.0.0.1:5432/s1",
           "jdbcUser": "postgres", "jdbcPassword": "${env:PGPASSWORD}", "jdbcSchema": "public",
           "shardspace": "gold"}
        ],
        "chunks": 240,
        "tables": [
          {"name": "CUSTOMERS", "physicalName": "customers", "method": "consistent-hash",
           "shardKey": ["CUST_ID"]},
          {"name": "ORDERS",    "method": "consistent-hash", "shardKey": ["CUST_ID"]},
          {"name": "EVENTS",    "method": "range", "shardKey": ["EVENT_DAY"],
           "ranges": [{"shard": "s0", "to": "2020-01-01"},
                      {"shard": "s1", "from": "2020-01-01"}]},
          {"name": "ACCOUNTS",  "method": "list", "shardKey": ["REGION"],
           "lists": [{"shard": "s0", "values": ["EU", "UK"]},
                     {"shard": "s1", "values": ["US"]},
                     {"shard": "s1", "default": true}]},
          {"name": "COUNTRIES", "method": "duplicated"}
        ]
      }""";

  @Test void parsesTheContractExample() {
    ShardSetModel model = parse(CONTRACT_EXAMPLE);
    ShardSpec s0 = new ShardSpec("s0", "jdbc:h2:mem:s0", "sa", "", null, null, null, "default");
    ShardSpec s1 = new ShardSpec("s1", "jdbc:postgresql://127.0.0.1:5432/s1", "postgres",
        "s3cret", null, null, "public", "gold");
    assertEquals(
        new ShardSetModel("SALES", List.of(s0, s1), 240, List.of(), null,
            List.of(
                new TableSpec("CUSTOMERS", "customers", ShardingMethod.CONSISTENT_HASH,
                    List.of("CUST_ID"), List.of("s0"), "default", List.of(), List.of()),
                new TableSpec("ORDERS", "ORDERS", ShardingMethod.CONSISTENT_HASH,
                    List.of("CUST_ID"), List.of("s0"), "default", List.of(), List.of()),
                new TableSpec("EVENTS", "EVENTS", ShardingMethod.RANGE, List.of("EVENT_DAY"),
                    List.of("s0", "s1"), null,
                    List.of(new RangeSpec("s0", null, "2020-01-01"),
                        new RangeSpec("s1", "2020-01-01", null)),
                    List.of()),
                new TableSpec("ACCOUNTS", "ACCOUNTS", ShardingMethod.LIST, List.of("REGION"),
                    List.of("s0", "s1"), null, List.of(),
                    List.of(new ListSpec("s0", List.of("EU", "UK"), false),
                        new ListSpec("s1", List.of("US"), false),
                        new ListSpec("s1", List.of(), true))),
                new TableSpec("COUNTRIES", "COUNTRIES", ShardingMethod.DUPLICATED, List.of(),
                    List.of("s0", "s1"), null, List.of(), List.of()))),
        model);
    assertEquals(240, model.chunksFor("gold"));
    assertEquals(List.of(s1), model.shardspace("gold"));
    assertEquals(s1, model.shard("s1"));
  }

  @Test void defaultsChunksTo120PerShardOfTheShardspace() {
    ShardSetModel model = parse("""
        {"shards": [{"name": "a", "jdbcUrl": "jdbc:h2:mem:a"},
                    {"name": "b", "jdbcUrl": "jdbc:h2:mem:b", "shardspace": "gold"},
                    {"name": "c", "jdbcUrl": "jdbc:h2:mem:c", "shardspace": "gold"}]}""");
    assertEquals(120, model.chunksFor("default"));
    assertEquals(240, model.chunksFor("gold"));
    assertEquals(List.of(), model.tables());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> model.chunksFor("silver"));
    assertEquals("shardspace 'silver' has no shards", e.getMessage());
  }

  @Test void replacesEnvironmentVariablesInAnyString() {
    ShardSetModel model = parse("""
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:postgresql://${env:PGHOST}:5432/s0",
                     "jdbcPassword": "${env:PGPASSWORD}"}],
         "tables": [{"name": "T", "method": "list", "shardKey": "K",
                     "lists": [{"shard": "s0", "values": ["${env:PGHOST}", 7]}]}]}""");
    assertEquals("jdbc:postgresql://db1:5432/s0", model.shard("s0").jdbcUrl());
    assertEquals("s3cret", model.shard("s0").jdbcPassword());
    assertEquals(List.of(new ListSpec("s0", List.of("db1", 7), false)),
        model.tables().get(0).lists());
  }

  @Test void replacesModelDirWithTheModelFolder() {
    Map<String, Object> operand = operand("""
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:${modelDir}/data/s0"}]}""");
    File folder = new File("some/models");
    operand.put("baseDirectory", folder);
    operand.put("modelUri", "some/models/model.json");
    ShardSetModel model = ModelParser.parse("SALES", operand, ENV);
    assertEquals("jdbc:h2:" + folder.getAbsolutePath() + "/data/s0",
        model.shard("s0").jdbcUrl());
  }

  @Test void ignoresTheTablesCalciteCopiesFromTheSchema() {
    Map<String, Object> operand = new HashMap<>(operand("""
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}]}"""));
    operand.put("tables", List.of(new JsonView("V", null, "select 1", null, null)));
    assertEquals(List.of(), ModelParser.parse("SALES", operand, ENV).tables());
  }

  @Test void acceptsAStringAsAOneColumnShardKey() {
    TableSpec table = parse(twoShards("""
        {"name": "T", "method": "consistent-hash", "shardKey": "ID"}""")).tables().get(0);
    assertEquals(List.of("ID"), table.shardKey());
  }

  @Test void keepsConsistentHashShardsInModelOrder() {
    TableSpec table = parse(twoShards("""
        {"name": "T", "method": "consistent-hash", "shardKey": ["A", "B"],
         "shards": ["s1", "s0"]}""")).tables().get(0);
    assertEquals(List.of("s0", "s1"), table.shards());
    assertEquals("default", table.shardspace());
  }

  @Test void takesAConsistentHashShardspaceFromItsShards() {
    ShardSetModel model = parse("""
        {"shards": [{"name": "a", "jdbcUrl": "jdbc:h2:mem:a"},
                    {"name": "b", "jdbcUrl": "jdbc:h2:mem:b", "shardspace": "gold"},
                    {"name": "c", "jdbcUrl": "jdbc:h2:mem:c", "shardspace": "gold"}],
         "tables": [{"name": "T", "method": "consistent-hash", "shardKey": "K",
                     "shards": ["c", "b"]},
                    {"name": "U", "method": "consistent-hash", "shardKey": "K",
                     "shardspace": "gold"},
                    {"name": "V", "method": "duplicated", "shardspace": "gold"},
                    {"name": "W", "method": "duplicated", "shards": ["c", "a"]}]}""");
    List<TableSpec> tables = model.tables();
    assertEquals(List.of("b", "c"), tables.get(0).shards());
    assertEquals("gold", tables.get(0).shardspace());
    assertEquals(List.of("b", "c"), tables.get(1).shards());
    assertEquals(List.of("b", "c"), tables.get(2).shards());
    assertEquals("gold", tables.get(2).shardspace());
    assertEquals(List.of("a", "c"), tables.get(3).shards());
    assertEquals(null, tables.get(3).shardspace());
  }

  @Test void readsParallelismAndIntegralNumbers() {
    ShardSetModel model = parse("""
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}],
         "chunks": 480.0, "parallelism": 4}""");
    assertEquals(480, model.chunks());
    assertEquals(4, model.parallelism());
  }

  @Test void hidesPasswordsWhenPrinted() {
    ShardSpec shard = new ShardSpec("s0", "jdbc:postgresql://h/db?user=u&password=pw&ssl=true",
        "u", "pw", null, null, "public", "default");
    assertEquals("ShardSpec[name=s0, jdbcUrl=jdbc:postgresql://h/db?user=u&password=***"
        + "&ssl=true, jdbcUser=u, jdbcPassword=***, jdbcDriver=null, jdbcCatalog=null,"
        + " jdbcSchema=public, shardspace=default, poolSize=8, connectTimeoutMillis=10000,"
        + " statementTimeoutMillis=0, socketTimeoutMillis=300000, tcpKeepAlive=true,"
        + " acquireTimeoutMillis=30000, lockTimeoutMillis=-1]", shard.toString());
  }
}
