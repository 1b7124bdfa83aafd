package io.shardset.model;

import org.junit.jupiter.api.Test;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Tests the connection settings of a shard entry: pool size and time limits. */
class ShardSettingsTest {
  @Test void defaults() {
    ShardSpec shard = parse("""
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"}]}""").shard("s0");
    assertEquals(8, shard.poolSize());
    assertEquals(10_000, shard.connectTimeoutMillis());
    assertEquals(0, shard.statementTimeoutMillis());
  }

  @Test void givenValues() {
    ShardSpec shard = parse("""
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0", "poolSize": 3,
                     "connectTimeout": 1500, "statementTimeout": 60000.0}]}""").shard("s0");
    assertEquals(3, shard.poolSize());
    assertEquals(1500, shard.connectTimeoutMillis());
    assertEquals(60_000, shard.statementTimeoutMillis());
  }

  @Test void poolSizeMustBePositive() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0", "poolSize": 0}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'poolSize':"
            + " expected an integer from 1 to 2147483647, got 0");
  }

  @Test void connectTimeoutMustBeAnInteger() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0", "connectTimeout": "10s"}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'connectTimeout':"
            + " expected an integer from 1 to 2147483647, got a string");
  }

  @Test void statementTimeoutMustBeWhole() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0",
                         "statementTimeout": 1.5}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'statementTimeout':"
            + " expected an integer from 1 to 2147483647, got 1.5");
  }

  @Test void misspeltSettingIsNamed() {
    assertFails("""
            {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0", "poolsize": 4}]}""",
        "Invalid ShardSet model: schema 'SALES', shard 's0', field 'poolsize':"
            + " unknown key; did you mean 'poolSize'?");
  }
}
