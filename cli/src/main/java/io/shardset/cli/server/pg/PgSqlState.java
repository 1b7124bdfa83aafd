package io.shardset.cli.server.pg;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Map;

/**
 * The SQLState an ErrorResponse carries for a ShardSet error: PostgreSQL's own code where
 * ShardSet's is the SQL standard's or ODBC's for the same condition (clients test for
 * PostgreSQL's: Metabase looks for {@code 42P01}, a missing table), else ShardSet's code
 * unchanged, which already is PostgreSQL's for most conditions (class 22 data errors, 23
 * constraint violations, {@code 25P02}, {@code 40001}, {@code 57014} canceled); a missing or
 * malformed code is {@code XX000}, PostgreSQL's internal error.
 */
public final class PgSqlState {
  /** PostgreSQL's internal error: what an error without a usable code is. */
  public static final String INTERNAL_ERROR = "XX000";

  private static final Map<String, String> POSTGRESQL = Map.of(
      "42000", "42601", // syntax error or access rule violation: syntax_error
      "42S02", "42P01", // base table or view not found: undefined_table
      "42S22", "42703", // column not found: undefined_column
      "42S12", "42704", // index not found: undefined_object
      "22018", "22P02", // invalid character value for cast: invalid_text_representation
      "HY000", INTERNAL_ERROR, // general error
      "HY008", "57014"); // operation canceled: query_canceled

  private PgSqlState() {
  }

  /** The code to send for an error with this SQLState. */
  public static String of(@Nullable String sqlState) {
    if (sqlState == null || !sqlState.matches("[0-9A-Z]{5}")) {
      return INTERNAL_ERROR;
    }
    return POSTGRESQL.getOrDefault(sqlState, sqlState);
  }
}
