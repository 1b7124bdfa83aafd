package io.shardset.topology;

import io.shardset.model.ModelParser;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** Model files of one schema, S, opened as a connection opens them. */
final class ModelFiles {
  private static final Pattern LINE_COMMENT = Pattern.compile("//.*");

  private ModelFiles() {
  }

  /** The operand of the first schema of a model file's text, as Calcite passes it. */
  static Map<String, Object> operand(String json) {
    try {
      final Map<?, ?> root = new ObjectMapper()
          .readValue(LINE_COMMENT.matcher(json).replaceAll(""), Map.class);
      final Map<?, ?> schema = (Map<?, ?>) ((List<?>) root.get("schemas")).get(0);
      final Map<String, Object> operand = new LinkedHashMap<>();
      ((Map<?, ?>) schema.get("operand")).forEach((k, v) -> operand.put((String) k, v));
      return operand;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the file and opens the live model of its schema S as a connection would, in
   * {@code models}. */
  static LiveModel open(LiveModels models, Path file, String json) throws IOException {
    Files.writeString(file, json);
    final Map<String, Object> operand = operand(json);
    operand.put("modelUri", file.toString());
    operand.put("baseDirectory", file.getParent().toFile());
    return models.of("S", operand, ModelParser.parse("S", operand, System::getenv));
  }
}
