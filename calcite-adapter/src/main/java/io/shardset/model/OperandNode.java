package io.shardset.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One JSON object of a model operand, read as typed values; every error names where the value
 * sits.
 *
 * <p>JSON values arrive as Calcite's model handler parsed them with Jackson: strings, numbers of
 * any {@link Number} class, booleans, lists and maps. An explicit JSON {@code null} counts as an
 * absent key. Every string read through this class has its placeholders replaced.
 */
final class OperandNode {
  private final Map<?, ?> map;
  private final Location location;
  private final Placeholders placeholders;

  OperandNode(Map<?, ?> map, Location location, Placeholders placeholders) {
    this.map = Objects.requireNonNull(map, "map");
    this.location = Objects.requireNonNull(location, "location");
    this.placeholders = Objects.requireNonNull(placeholders, "placeholders");
  }

  Location location() {
    return location;
  }

  Placeholders placeholders() {
    return placeholders;
  }

  /** The same object, with errors reported at another location. */
  OperandNode at(Location newLocation) {
    return new OperandNode(map, newLocation, placeholders);
  }

  /**
   * This list entry, reporting errors at the place its {@code name} gives it once it has one
   * (a shard or a table), rather than at its position in the list.
   */
  OperandNode named(Function<String, Location> place) {
    String name = name("name");
    return name == null ? this : at(place.apply(name));
  }

  /** The raw value of a key, or null if absent. */
  Object raw(String key) {
    return map.get(key);
  }

  /** Whether a key has a non-null value. */
  boolean has(String key) {
    return map.get(key) != null;
  }

  /** An error about a key of this object, or about the object when the key is null. */
  ModelException error(String key, String problem) {
    return location.error(key, problem);
  }

  /**
   * Fails on the first key that is neither known nor allowed, suggesting the known key that
   * was probably meant.
   */
  void checkKeys(List<String> known, Set<String> allowed) {
    for (Object key : map.keySet()) {
      if (!(key instanceof String name)) {
        throw error(null, "keys must be strings, got " + describe(key));
      }
      if (known.contains(name) || allowed.contains(name)) {
        continue;
      }
      String suggestion = Suggestions.closest(name, known);
      throw error(name, suggestion != null
          ? "unknown key; did you mean '" + suggestion + "'?"
          : "unknown key; expected one of " + String.join(", ", known));
    }
  }

  /** A string, or null if absent. */
  String string(String key) {
    Object value = map.get(key);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s)) {
      throw error(key, "expected a string, got " + describe(value));
    }
    return resolve(key, s);
  }

  /** A non-empty string, or null if absent. */
  String name(String key) {
    String value = string(key);
    if (value != null && value.isEmpty()) {
      throw error(key, "must not be empty");
    }
    return value;
  }

  /** A non-empty string, or {@code fallback} (its placeholders replaced) if absent. */
  String name(String key, String fallback) {
    String value = name(key);
    return value != null ? value : resolve(key, fallback);
  }

  /** The object's keys, in order. */
  List<String> keys() {
    List<String> keys = new ArrayList<>();
    map.keySet().forEach(k -> keys.add(String.valueOf(k)));
    return keys;
  }

  /** An object reported as a field of this one ({@code partitionBy.column}); null if absent. */
  OperandNode object(String key) {
    Object value = map.get(key);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> object)) {
      throw error(key, "expected an object, got " + describe(value));
    }
    return new OperandNode(object, location.object(key), placeholders);
  }

  /** A non-empty string that must be present. */
  String requiredName(String key) {
    String value = name(key);
    if (value == null) {
      throw error(key, "a value is required");
    }
    return value;
  }

  /**
   * A non-empty list of non-empty strings, where a single string stands for a list of one;
   * null if absent.
   */
  List<String> names(String key) {
    Object value = map.get(key);
    if (value == null) {
      return null;
    }
    if (value instanceof String) {
      return List.of(name(key));
    }
    List<String> names = new ArrayList<>();
    for (Object item : nonEmptyList(key, value, "a string or a non-empty list of strings")) {
      if (!(item instanceof String s)) {
        throw error(key, "expected a list of strings, got " + describe(item) + " in it");
      }
      String resolved = resolve(key, s);
      if (resolved.isEmpty()) {
        throw error(key, "names must not be empty");
      }
      names.add(resolved);
    }
    return names;
  }

  /**
   * An integer from {@code min} to {@code max}, or null if absent; any JSON number without a
   * fraction counts, so {@code 240.0} is 240.
   */
  Long integer(String key, long min, long max) {
    Object value = map.get(key);
    if (value == null) {
      return null;
    }
    BigInteger integer = value instanceof Number number ? integral(number) : null;
    if (integer == null
        || integer.compareTo(BigInteger.valueOf(min)) < 0
        || integer.compareTo(BigInteger.valueOf(max)) > 0) {
      throw error(key, "expected an integer from " + min + " to " + max + ", got "
          + (value instanceof Number ? value : describe(value)));
    }
    return integer.longValue();
  }

  /** An integer from 1 to {@link Integer#MAX_VALUE}, or null if absent. */
  Integer positiveInt(String key) {
    Long value = integer(key, 1, Integer.MAX_VALUE);
    return value == null ? null : value.intValue();
  }

  /** A boolean; false if absent. */
  boolean flag(String key) {
    Object value = map.get(key);
    if (value == null) {
      return false;
    }
    if (!(value instanceof Boolean b)) {
      throw error(key, "expected true or false, got " + describe(value));
    }
    return b;
  }

  /** A number or a string, or null if absent. */
  Object bound(String key) {
    Object value = map.get(key);
    if (value instanceof String s) {
      return resolve(key, s);
    }
    if (value != null && !(value instanceof Number)) {
      throw error(key, "expected a number or a string, got " + describe(value));
    }
    return value;
  }

  /** A non-empty list of strings, numbers and booleans, or null if absent. */
  List<Object> scalars(String key) {
    Object value = map.get(key);
    if (value == null) {
      return null;
    }
    List<Object> scalars = new ArrayList<>();
    for (Object item : nonEmptyList(key, value, "a non-empty list")) {
      if (item instanceof String s) {
        scalars.add(resolve(key, s));
      } else if (item instanceof Number || item instanceof Boolean) {
        scalars.add(item);
      } else {
        throw error(key, "expected strings, numbers or booleans, got " + describe(item)
            + " in the list");
      }
    }
    return scalars;
  }

  /** A list of JSON objects, each reported as an entry of this key; null if absent. */
  List<OperandNode> entries(String key) {
    Object value = map.get(key);
    if (value == null) {
      return null;
    }
    if (!(value instanceof List<?> list)) {
      throw error(key, "expected a list of objects, got " + describe(value));
    }
    List<OperandNode> entries = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      Location entry = location.entry(key, i);
      if (!(list.get(i) instanceof Map<?, ?> object)) {
        throw entry.error(null, "expected an object, got " + describe(list.get(i)));
      }
      entries.add(new OperandNode(object, entry, placeholders));
    }
    return entries;
  }

  private List<?> nonEmptyList(String key, Object value, String expected) {
    if (!(value instanceof List<?> list) || list.isEmpty()) {
      throw error(key, "expected " + expected + ", got "
          + (value instanceof List ? "an empty list" : describe(value)));
    }
    return list;
  }

  private String resolve(String key, String value) {
    try {
      return placeholders.resolve(value);
    } catch (IllegalArgumentException e) {
      throw error(key, e.getMessage());
    }
  }

  /** The value as an integer, or null if it has a fraction or is not finite. */
  private static BigInteger integral(Number number) {
    if (number instanceof Integer || number instanceof Long || number instanceof Short
        || number instanceof Byte) {
      return BigInteger.valueOf(number.longValue());
    }
    if (number instanceof BigInteger big) {
      return big;
    }
    try {
      BigDecimal decimal = number instanceof BigDecimal d ? d : new BigDecimal(number.toString());
      return decimal.stripTrailingZeros().scale() <= 0 ? decimal.toBigIntegerExact() : null;
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }

  /** The JSON type of a value, for messages; never the value itself, which may be secret. */
  static String describe(Object value) {
    if (value instanceof String) {
      return "a string";
    } else if (value instanceof Boolean) {
      return "a boolean";
    } else if (value instanceof Number) {
      return "a number";
    } else if (value instanceof Map) {
      return "an object";
    } else if (value instanceof List) {
      return "a list";
    } else if (value == null) {
      return "null";
    }
    return "a " + value.getClass().getSimpleName();
  }
}
