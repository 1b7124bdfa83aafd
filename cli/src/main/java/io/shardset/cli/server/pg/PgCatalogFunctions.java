package io.shardset.cli.server.pg;

import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The functions of PostgreSQL's catalog that clients call on it ({@code format_type},
 * {@code pg_table_is_visible}, {@code pg_get_userbyid}, {@code version()}, ...), answered from
 * the catalog's fixed identifiers (see {@link PgCatalogModel}). Each public static method is a
 * function of its name in snake case ({@link #sqlName}).
 */
public final class PgCatalogFunctions {
  private PgCatalogFunctions() {
  }

  /** Every function with its SQL name; an overloaded name comes once per signature. */
  static List<Map.Entry<String, Function>> all() {
    final List<Map.Entry<String, Function>> functions = new ArrayList<>();
    for (Method method : PgCatalogFunctions.class.getDeclaredMethods()) {
      if (Modifier.isPublic(method.getModifiers()) && Modifier.isStatic(method.getModifiers())) {
        functions.add(Map.entry(sqlName(method.getName()), ScalarFunctionImpl.create(method)));
      }
    }
    return List.copyOf(functions);
  }

  /** The SQL name of a method: {@code pgTableIsVisible} is {@code pg_table_is_visible}. */
  static String sqlName(String method) {
    final StringBuilder name = new StringBuilder();
    for (char c : method.toCharArray()) {
      if (Character.isUpperCase(c)) {
        name.append('_').append(Character.toLowerCase(c));
      } else {
        name.append(c);
      }
    }
    return name.toString();
  }

  public static String version() {
    return "PostgreSQL " + PgSettings.SERVER_VERSION + " (ShardSet)";
  }

  public static String currentDatabase() {
    return PgCatalogSchema.DATABASE;
  }

  public static String pgGetUserbyid(@Nullable Integer oid) {
    return PgCatalogSchema.OWNER_NAME;
  }

  /** Whether a table is on the search path: the tables of {@code public} and the catalog's. */
  public static boolean pgTableIsVisible(@Nullable Integer oid) {
    return oid != null && (PgCatalogModel.namespaceOf(oid) == PgCatalogModel.PUBLIC
        || oid < PgCatalogModel.INFORMATION_SCHEMA);
  }

  public static boolean pgTypeIsVisible(@Nullable Integer oid) {
    return true;
  }

  public static @Nullable String formatType(@Nullable Integer oid, @Nullable Integer modifier) {
    return oid == null ? null : PgTypeCatalog.format(oid, modifier == null ? -1 : modifier);
  }

  public static @Nullable String objDescription(@Nullable Integer oid,
      @Nullable String catalog) {
    return null;
  }

  public static @Nullable String colDescription(@Nullable Integer oid,
      @Nullable Integer column) {
    return null;
  }

  public static @Nullable String pgGetExpr(@Nullable String expression,
      @Nullable Integer relation) {
    return null;
  }

  public static @Nullable String pgGetExpr(@Nullable String expression,
      @Nullable Integer relation, @Nullable Boolean pretty) {
    return null;
  }

  public static String pgEncodingToChar(@Nullable Integer encoding) {
    return "UTF8";
  }

  public static boolean hasTablePrivilege(@Nullable String table,
      @Nullable String privilege) {
    return true;
  }

  public static boolean hasSchemaPrivilege(@Nullable String schema,
      @Nullable String privilege) {
    return true;
  }

  public static boolean hasDatabasePrivilege(@Nullable String database,
      @Nullable String privilege) {
    return true;
  }

  /** An identifier quoted where PostgreSQL would need it quoted. */
  public static @Nullable String quoteIdent(@Nullable String name) {
    if (name == null) {
      return null;
    }
    return name.matches("[a-z_][a-z0-9_$]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
