package io.shardset.cli.server.pg;

/**
 * What PostgreSQL's clients write that Calcite's parser does not take, written as Calcite
 * takes it, outside strings and comments: {@code OPERATOR(pg_catalog.~)} as {@code ~},
 * {@code COLLATE pg_catalog.default} dropped (the default collation is the only one),
 * {@code (current_schemas(true))[1]} as {@code 'pg_catalog'}, {@code current_schema()} as
 * {@code 'public'}, and the typed literals of
 * {@link SimpleQueryText#typedLiterals}.
 */
final class PgQueryRewrites {
  private PgQueryRewrites() {
  }

  static String rewrite(String statement) {
    String text = SimpleQueryText.typedLiterals(statement);
    if (text.contains("OPERATOR(") || text.contains("COLLATE")) {
      text = SimpleQueryText.replaceCode(text, "OPERATOR(pg_catalog.", ")", true);
      text = SimpleQueryText.replaceCode(text, "COLLATE pg_catalog.default", "", false);
    }
    if (text.contains("current_schemas(true))[1]")) {
      // The search path's first schema, which is pg_catalog's.
      text = SimpleQueryText.replaceCode(text, "(pg_catalog.current_schemas(true))[1]",
          "'pg_catalog'", false);
    }
    if (SimpleQueryText.containsIgnoreCase(text, "current_schema()")) {
      // The search path's first schema that exists: the default schema, public to clients.
      final String schema = "'" + PgSessionSchemas.PUBLIC + "'";
      text = SimpleQueryText.replaceCode(text, "pg_catalog.current_schema()", schema, false);
      text = SimpleQueryText.replaceCode(text, "current_schema()", schema, false);
    }
    return text;
  }
}
