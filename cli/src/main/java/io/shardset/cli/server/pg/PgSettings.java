package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.time.ZoneId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A session's run-time parameters, as {@code SET} and {@code SHOW} see them: the ones a
 * PostgreSQL server reports at startup and whenever they change (ParameterStatus), the ones
 * clients set (application_name, extra_float_digits, search_path, statement_timeout, ...),
 * and the ones they read. Names are kept in lower case, as PostgreSQL treats them. ShardSet
 * takes any setting a client sends and keeps it for SHOW; only {@code statement_timeout}
 * changes how statements run, and {@code client_encoding} must stay UTF-8.
 */
final class PgSettings {
  /** The PostgreSQL version clients are told: the protocol and catalog it answers like. */
  static final String SERVER_VERSION = "15.0";
  /** Settings PostgreSQL reports with a ParameterStatus whenever they change. */
  private static final Set<String> REPORTED = Set.of("application_name", "client_encoding",
      "datestyle", "integer_datetimes", "intervalstyle", "is_superuser", "server_encoding",
      "server_version", "session_authorization", "standard_conforming_strings", "timezone");
  /** How PostgreSQL spells the reported settings in a ParameterStatus. */
  /** The SQL standard's names SHOW takes for settings ({@code SHOW TIME ZONE}). */
  private static final Map<String, String> SHOWN_AS = Map.of(
      "transaction isolation level", "transaction_isolation", "time zone", "timezone",
      "session authorization", "session_authorization");
  private static final Map<String, String> SPELLING = Map.of("datestyle", "DateStyle",
      "intervalstyle", "IntervalStyle", "timezone", "TimeZone");

  private final Map<String, String> values = new TreeMap<>();

  PgSettings(String user) {
    values.put("application_name", "");
    values.put("client_encoding", "UTF8");
    values.put("datestyle", "ISO, MDY");
    values.put("default_transaction_isolation", "read committed");
    values.put("default_transaction_read_only", "off");
    values.put("extra_float_digits", "1");
    values.put("integer_datetimes", "on");
    values.put("intervalstyle", "postgres");
    values.put("is_superuser", "off");
    values.put("lc_collate", "C");
    values.put("lc_ctype", "C");
    values.put("max_identifier_length", "63");
    values.put("search_path", "\"$user\", public");
    values.put("server_encoding", "UTF8");
    values.put("server_version", SERVER_VERSION);
    values.put("server_version_num", "150000");
    values.put("session_authorization", user);
    values.put("standard_conforming_strings", "on");
    values.put("statement_timeout", "0");
    values.put("timezone", ZoneId.systemDefault().getId());
    values.put("transaction_isolation", "read committed");
    values.put("transaction_read_only", "off");
  }

  /** Every setting's name and value, by name. */
  Map<String, String> all() {
    return Collections.unmodifiableMap(values);
  }

  /** The settings reported at startup, with their values, as PostgreSQL names them. */
  Map<String, String> reported() {
    final Map<String, String> reported = new LinkedHashMap<>();
    for (String name : REPORTED) {
      reported.put(SPELLING.getOrDefault(name, name), values.get(name));
    }
    return reported;
  }

  /**
   * Sets a parameter.
   *
   * @return the name a ParameterStatus reports it by if PostgreSQL reports it, else null
   * @throws PgProtocolException if the value cannot be taken
   */
  @Nullable String set(String name, String value) {
    final String key = name.toLowerCase(Locale.ROOT);
    if (key.equals("client_encoding") && !isUtf8(value)) {
      throw new PgProtocolException("22023", "client encoding \"" + value + "\" is not"
          + " supported: ShardSet speaks UTF8 only");
    }
    if (key.equals("statement_timeout")) {
      millis(value);
    }
    if (key.equals("server_version") || key.equals("server_encoding")
        || key.equals("is_superuser") || key.equals("integer_datetimes")) {
      throw new PgProtocolException("55P02", "parameter \"" + key + "\" cannot be changed");
    }
    values.put(key, key.equals("client_encoding") ? "UTF8" : value);
    return REPORTED.contains(key) ? SPELLING.getOrDefault(key, key) : null;
  }

  /** Sets what a startup message's parameters carry, as SET would. */
  void startup(Map<String, String> parameters) {
    for (Map.Entry<String, String> parameter : parameters.entrySet()) {
      final String key = parameter.getKey().toLowerCase(Locale.ROOT);
      if (!key.equals("user") && !key.equals("database") && !key.equals("options")
          && !key.equals("replication")) {
        set(key, parameter.getValue());
      }
    }
  }

  /** Whether there is a parameter of the name, as SHOW takes it. */
  boolean has(String name) {
    final String key = name.toLowerCase(Locale.ROOT);
    return values.containsKey(SHOWN_AS.getOrDefault(key, key));
  }

  /** The value of a parameter, as SHOW gives it. */
  String show(String name) {
    final String key = name.toLowerCase(Locale.ROOT);
    final String value = values.get(SHOWN_AS.getOrDefault(key, key));
    if (value == null) {
      throw new PgProtocolException("42704", "unrecognized configuration parameter \""
          + name + "\"");
    }
    return value;
  }

  /** {@code statement_timeout} in milliseconds, 0 for none. */
  long statementTimeoutMillis() {
    return millis(values.get("statement_timeout"));
  }

  /** Puts a parameter back to its value at the start of the session. */
  void reset(String name, PgSettings initial) {
    final String key = name.toLowerCase(Locale.ROOT);
    final String value = initial.values.get(key);
    if (value != null) {
      values.put(key, value);
    }
  }

  /** A copy, to reset to. */
  PgSettings copy() {
    final PgSettings copy = new PgSettings(values.get("session_authorization"));
    copy.values.clear();
    copy.values.putAll(values);
    return copy;
  }

  /** Every parameter back to the values of {@code initial}. */
  void resetAll(PgSettings initial) {
    values.clear();
    values.putAll(initial.values);
  }

  private static boolean isUtf8(String value) {
    final String name = value.replace("-", "").replace("_", "").trim()
        .toUpperCase(Locale.ROOT);
    return name.equals("UTF8") || name.equals("UNICODE") || name.equals("'UTF8'");
  }

  /** A duration as PostgreSQL reads one: milliseconds, or a number with ms, s, min, h or d. */
  private static long millis(String value) {
    final String text = value.trim().toLowerCase(Locale.ROOT);
    int split = 0;
    while (split < text.length() && (Character.isDigit(text.charAt(split))
        || text.charAt(split) == '.')) {
      split++;
    }
    try {
      final double number = Double.parseDouble(text.substring(0, split));
      final String unit = text.substring(split).trim();
      final double factor = switch (unit) {
      case "", "ms" -> 1;
      case "s" -> 1_000;
      case "min" -> 60_000;
      case "h" -> 3_600_000;
      case "d" -> 86_400_000;
      default -> throw new NumberFormatException(unit);
      };
      return Math.round(number * factor);
    } catch (NumberFormatException e) {
      throw new PgProtocolException("22023", "invalid value for a duration: \"" + value
          + "\"");
    }
  }
}
