package io.shardset.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Builds model operands from JSON text the way Calcite's model handler does, and parses them. */
public final class TestOperands {
  /** The environment the tests see. */
  static final UnaryOperator<String> ENV = Map.of("PGPASSWORD", "s3cret", "PGHOST", "db1")::get;

  private static final ObjectMapper MAPPER = new ObjectMapper()
      .configure(JsonParser.Feature.ALLOW_COMMENTS, true);

  private TestOperands() {
  }

  /** The operand JSON text parses to, with Jackson's default number types. */
  public static Map<String, Object> operand(String json) {
    try {
      return MAPPER.readValue(json, new TypeReference<Map<String, Object>>() { });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses an operand of schema {@code SALES}. */
  public static ShardSetModel parse(String json) {
    return ModelParser.parse("SALES", operand(json), ENV);
  }

  /** Asserts that parsing fails with exactly this message, and returns the error. */
  static ModelException assertFails(String json, String message) {
    ModelException e = assertThrows(ModelException.class, () -> parse(json));
    assertEquals(message, e.getMessage());
    return e;
  }

  /** An operand with two shards s0 and s1 and these tables. */
  public static String twoShards(String tables) {
    return String.format(Locale.ROOT, """
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                    {"name": "s1", "jdbcUrl": "jdbc:h2:mem:s1"}],
         "tables": [%s]}""", tables);
  }
}
