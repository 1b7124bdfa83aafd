package io.shardset.model;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A schema's global sequences and the table columns that take their next value when an
 * INSERT leaves them out.
 *
 * @param declared the sequences, in model order
 * @param columns by table name, the sequence of each such column, by column name
 */
public record Sequences(List<SequenceSpec> declared, Map<String, Map<String, String>> columns) {
  /** No sequences. */
  public static final Sequences NONE = new Sequences(List.of(), Map.of());

  public Sequences {
    declared = List.copyOf(declared);
    Objects.requireNonNull(columns, "columns");
    columns = columns.entrySet().stream().collect(Collectors.toUnmodifiableMap(Map.Entry::getKey,
        e -> Map.copyOf(e.getValue())));
  }

  /** The sequence of that name, or null. */
  public @Nullable SequenceSpec named(String name) {
    return declared.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }

  /** The columns of a table that take a sequence's value, with the sequence's name. */
  public Map<String, String> ofTable(String table) {
    return columns.getOrDefault(table, Map.of());
  }
}
