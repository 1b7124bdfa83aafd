package io.shardset.calcite;

import io.shardset.model.ShardSetModel;
import io.shardset.model.TestOperands;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where a model read from no file keeps its decision log: one folder per set of shards. */
class InlineLogFolderTest {
  private static ShardSetModel model(String firstUrl, String password) {
    return TestOperands.parse("{\"shards\": ["
        + "{\"name\": \"s0\", \"jdbcUrl\": \"" + firstUrl + "\", \"jdbcPassword\": \""
        + password + "\"},"
        + "{\"name\": \"s1\", \"jdbcUrl\": \"jdbc:h2:mem:b\"}], \"tables\": []}");
  }

  @Test void theSameShardsShareAFolderAndOtherShardsDoNot() {
    final Path folder = ShardSetRuntime.inlineLogFolder(model("jdbc:h2:mem:a", "x"));
    assertTrue(folder.startsWith(Path.of(System.getProperty("user.home"), ".shardset",
        "transactions")), folder.toString());
    // The password is no part of which shards these are.
    assertEquals(folder, ShardSetRuntime.inlineLogFolder(model("jdbc:h2:mem:a", "y")));
    assertNotEquals(folder, ShardSetRuntime.inlineLogFolder(model("jdbc:h2:mem:c", "x")));
  }
}
