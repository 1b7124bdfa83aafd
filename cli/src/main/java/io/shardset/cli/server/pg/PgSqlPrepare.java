package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL's prepared statements: {@code PREPARE name [(type, ...)] AS statement},
 * {@code EXECUTE name [(argument, ...)]} and {@code DEALLOCATE [PREPARE] name | ALL}, on the
 * same statements as the protocol's Parse names (as in PostgreSQL). EXECUTE's arguments are
 * literals: strings, numbers, {@code TRUE}, {@code FALSE}, {@code NULL}, each perhaps cast
 * ({@code '2024-01-31'::date}); they are bound as the text of the parameter's value.
 *
 * @param kind which statement
 * @param name the statement's name, as PostgreSQL folds it; null for {@code DEALLOCATE ALL}
 * @param oids for PREPARE, the types its parameters are declared of (0 for one not known)
 * @param statement for PREPARE, the statement prepared
 * @param arguments for EXECUTE, the text of each argument's value (null for NULL)
 */
record PgSqlPrepare(Kind kind, @Nullable String name, int[] oids, @Nullable String statement,
    List<@Nullable String> arguments) {
  /** Which statement. */
  enum Kind { PREPARE, EXECUTE, DEALLOCATE }

  private static final Pattern PREPARE = Pattern.compile("(?is)\\s*prepare\\s+"
      + PgNames.NAME
      + "\\s*(?:\\((.*?)\\))?\\s+as\\s+(.+?)\\s*;?\\s*");
  private static final Pattern EXECUTE = Pattern.compile("(?is)\\s*execute\\s+"
      + PgNames.NAME
      + "\\s*(?:\\((.*)\\))?\\s*;?\\s*");
  private static final Pattern DEALLOCATE = Pattern.compile("(?is)\\s*deallocate\\s+"
      + "(?:prepare\\s+)?" + PgNames.NAME + "\\s*;?\\s*");
  private static final Pattern NUMBER =
      Pattern.compile("[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?");
  private static final Pattern CAST = Pattern.compile("(?s)(.*?)\\s*::\\s*[\\p{L}_][\\w ]*"
      + "(?:\\([\\d, ]*\\))?");
  private static final Pattern MODIFIER = Pattern.compile("\\(.*");
  private static final Pattern SPACE = Pattern.compile("\\s+");
  /** PostgreSQL's names of types beside the catalog's ({@code int} for {@code int4}). */
  private static final Map<String, String> ALIASES = Map.of("int", "int4", "integer", "int4",
      "smallint", "int2", "bigint", "int8", "real", "float4", "float", "float8",
      "double precision", "float8", "boolean", "bool", "decimal", "numeric",
      "character varying", "varchar");

  /**
   * The statement {@code sql} is.
   *
   * @throws PgProtocolException (42601) for one that does not parse, (0A000) for an EXECUTE
   *     argument that is no literal
   */
  static PgSqlPrepare parse(String sql) {
    Matcher m = PREPARE.matcher(sql);
    if (m.matches()) {
      final List<String> types = m.group(2) == null ? List.of() : PgNames.items(m.group(2));
      final int[] oids = new int[types.size()];
      for (int i = 0; i < oids.length; i++) {
        oids[i] = oid(types.get(i));
      }
      return new PgSqlPrepare(Kind.PREPARE, PgNames.fold(m.group(1)), oids, m.group(3),
          List.of());
    }
    m = EXECUTE.matcher(sql);
    if (m.matches()) {
      final List<@Nullable String> arguments = new ArrayList<>();
      if (m.group(2) != null) {
        for (String argument : PgNames.items(m.group(2))) {
          arguments.add(value(argument));
        }
      }
      return new PgSqlPrepare(Kind.EXECUTE, PgNames.fold(m.group(1)), new int[0], null,
          arguments);
    }
    m = DEALLOCATE.matcher(sql);
    if (m.matches()) {
      final boolean all = m.group(1).equalsIgnoreCase("all");
      return new PgSqlPrepare(Kind.DEALLOCATE, all ? null : PgNames.fold(m.group(1)), new int[0],
          null, List.of());
    }
    throw new PgProtocolException("42601", "syntax error in "
        + SPACE.split(sql.trim(), 2)[0].toUpperCase(Locale.ROOT));
  }


  /** The text of a literal argument's value, or null for NULL. */
  private static @Nullable String value(String argument) {
    final Matcher cast = CAST.matcher(argument);
    final String literal = cast.matches() ? cast.group(1) : argument;
    if (literal.length() >= 2 && literal.startsWith("'") && literal.endsWith("'")
        && SimpleQueryText.tokenEnd(literal, 0) == literal.length()) {
      return literal.substring(1, literal.length() - 1).replace("''", "'");
    }
    if (NUMBER.matcher(literal).matches()) {
      return literal;
    }
    switch (literal.toLowerCase(Locale.ROOT)) {
    case "null":
      return null;
    case "true":
      return "t";
    case "false":
      return "f";
    default:
      throw new PgProtocolException("0A000",
          "EXECUTE takes literal arguments (strings, numbers, true, false, null), not: "
              + argument);
    }
  }

  /** The OID of a type's name, 0 for one not known. */
  private static int oid(String type) {
    final String name = MODIFIER.matcher(type.toLowerCase(Locale.ROOT)).replaceFirst("").trim();
    final String known = ALIASES.getOrDefault(name, name);
    for (PgTypeCatalog.Entry entry : PgTypeCatalog.TYPES) {
      if (entry.name().equals(known) || entry.sqlName().equals(known)) {
        return entry.oid();
      }
    }
    return 0;
  }

}
