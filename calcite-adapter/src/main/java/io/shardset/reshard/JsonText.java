package io.shardset.reshard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.util.Iterator;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Writes a JSON tree indented by two spaces, keeping an object or array of plain values on
 * one line when it fits, so that a chunk map reads as one entry per line.
 */
final class JsonText {
  /** The widest line a one-line object or array may make. */
  static final int WIDTH = 120;
  private static final int INDENT = 2;

  private JsonText() {
  }

  /** The tree as text, ending with a line break. */
  static String write(JsonNode node) {
    StringBuilder out = new StringBuilder();
    render(out, node, 0, 0);
    return out.append('\n').toString();
  }

  /**
   * Appends a node.
   *
   * @param indent the indent of the node's line
   * @param column the column at which the node starts
   */
  private static void render(StringBuilder out, JsonNode node, int indent, int column) {
    if (!node.isContainerNode() || node.isEmpty()
        || isFlat(node) && column + inline(node).length() + 1 <= WIDTH) {
      out.append(inline(node));
      return;
    }
    out.append(node.isObject() ? "{" : "[").append('\n');
    String pad = " ".repeat(indent + INDENT);
    if (node.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> field = fields.next();
        String key = quote(field.getKey()) + ": ";
        out.append(pad).append(key);
        render(out, field.getValue(), indent + INDENT, pad.length() + key.length());
        out.append(fields.hasNext() ? ",\n" : "\n");
      }
    } else {
      for (int i = 0; i < node.size(); i++) {
        out.append(pad);
        render(out, node.get(i), indent + INDENT, pad.length());
        out.append(i + 1 < node.size() ? ",\n" : "\n");
      }
    }
    out.append(" ".repeat(indent)).append(node.isObject() ? "}" : "]");
  }

  /** Whether every member of a container is a plain value (no object, no array). */
  private static boolean isFlat(JsonNode node) {
    for (JsonNode child : node) {
      if (child.isContainerNode()) {
        return false;
      }
    }
    return true;
  }

  /** The node on one line, with a space after each colon and comma. */
  private static String inline(JsonNode node) {
    if (node.isObject()) {
      StringJoiner j = new StringJoiner(", ", "{", "}");
      node.fields().forEachRemaining(f -> j.add(quote(f.getKey()) + ": " + inline(f.getValue())));
      return j.toString();
    }
    if (node.isArray()) {
      StringJoiner j = new StringJoiner(", ", "[", "]");
      node.forEach(child -> j.add(inline(child)));
      return j.toString();
    }
    return node.toString();
  }

  private static String quote(String text) {
    return TextNode.valueOf(text).toString();
  }
}
