package io.shardset.model;

import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${env:NAME}} and {@code ${modelDir}} in a model's string values.
 *
 * <p>Values are replaced once: a variable's value is never scanned for further placeholders, so
 * a password may contain {@code ${...}} verbatim.
 */
final class Placeholders {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(?:env:([^}]*)|modelDir)}");

  /** How each placeholder begins. */
  private static final String[] OPENINGS = {"${env:", "${modelDir"};

  private final UnaryOperator<String> env;
  private final String modelDir;

  /**
   * Creates placeholders.
   *
   * @param env looks up an environment variable, returning null when it is not set
   * @param modelDir the absolute path of the model file's folder, or null if unknown
   */
  Placeholders(UnaryOperator<String> env, String modelDir) {
    this.env = Objects.requireNonNull(env, "env");
    this.modelDir = modelDir;
  }

  /**
   * Returns the value with its placeholders replaced.
   *
   * @throws IllegalArgumentException naming a placeholder that cannot be replaced
   */
  String resolve(String value) {
    Matcher matcher = PLACEHOLDER.matcher(value);
    int end = 0;
    while (matcher.find()) {
      checkClosed(value.substring(end, matcher.start()));
      end = matcher.end();
    }
    checkClosed(value.substring(end));
    if (end == 0) {
      return value;
    }
    matcher.reset();
    StringBuilder b = new StringBuilder();
    while (matcher.find()) {
      matcher.appendReplacement(b, Matcher.quoteReplacement(replacement(matcher.group(1))));
    }
    return matcher.appendTail(b).toString();
  }

  /**
   * Refuses text outside placeholders that begins one without its closing brace, which would
   * otherwise reach a driver as part of a URL or password. The message shows the placeholder's
   * opening only: the rest may be a secret.
   */
  private static void checkClosed(String text) {
    for (String opening : OPENINGS) {
      if (text.contains(opening)) {
        throw new IllegalArgumentException("placeholder " + opening + "... is not closed: "
            + "write ${env:NAME} or ${modelDir}");
      }
    }
  }

  private String replacement(String variable) {
    if (variable == null) {
      if (modelDir == null) {
        throw new IllegalArgumentException(
            "${modelDir} is unknown: the operand has no baseDirectory");
      }
      return modelDir;
    }
    if (variable.isEmpty()) {
      throw new IllegalArgumentException("${env:} names no environment variable");
    }
    String value = env.apply(variable);
    if (value == null) {
      throw new IllegalArgumentException("environment variable " + variable + " is not set");
    }
    return value;
  }
}
