package io.shardset.calcite.prepare;

import org.apache.calcite.config.CalciteConnectionProperty;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The settings of a connection that can change a plan: every property Calcite's own
 * connection configuration reads (conformance, function libraries, type system, lexical
 * settings, time zone, default null collation, decorrelation, the model, ...), as it reads
 * them: names without regard to case, the last value of a name.
 *
 * <p>ShardSet's own properties are left out on purpose: none of them changes a plan. A
 * connection's scatter limits are checked against a plan's reaches each time a statement
 * is prepared ({@code PlannedReaches}), its sort memory, slow-statement log, audit and client
 * address are read from the data context when a statement runs, and its hints are part of the
 * statement text.
 */
record PlanSettings(SortedMap<String, String> values) {
  /** Calcite's properties by the names its configuration accepts for them. */
  private static final Map<String, CalciteConnectionProperty> BY_NAME = byName();

  PlanSettings {
    values = new TreeMap<>(values);
  }

  /** The plan settings among a connection's properties. */
  static PlanSettings of(Properties properties) {
    final SortedMap<String, String> values = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      final CalciteConnectionProperty property = BY_NAME.get(name.toUpperCase(Locale.ROOT));
      if (property != null) {
        values.put(property.name(), properties.getProperty(name));
      }
    }
    return new PlanSettings(values);
  }

  private static Map<String, CalciteConnectionProperty> byName() {
    final Map<String, CalciteConnectionProperty> byName = new HashMap<>();
    for (CalciteConnectionProperty property : CalciteConnectionProperty.values()) {
      byName.put(property.camelName().toUpperCase(Locale.ROOT), property);
      byName.put(property.name(), property);
    }
    return Map.copyOf(byName);
  }
}
