package io.shardset.topology;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.List;
import java.util.stream.Collectors;

/**
 * How a shard's SQL quotes identifiers, as its JDBC metadata says
 * ({@link java.sql.DatabaseMetaData#getIdentifierQuoteString()}): names quoted this way keep
 * their exact case. Loading and resharding write their SQL with it; the planner writes with
 * its own SQL dialect, which quotes the same way.
 *
 * @param quote the opening quote, or null when the database does not quote identifiers
 */
public record IdentifierQuoting(@Nullable String quote) {
  /** Double quotes, the SQL standard's (H2, PostgreSQL). */
  public static final IdentifierQuoting DOUBLE_QUOTES = new IdentifierQuoting("\"");

  public IdentifierQuoting {
    if (quote != null) {
      quote = quote.trim();
      quote = quote.isEmpty() ? null : quote;
    }
  }

  /** One identifier, quoted; a closing quote inside it is doubled. */
  public String quote(String identifier) {
    if (quote == null) {
      return identifier;
    }
    final String close = "[".equals(quote) ? "]" : quote;
    return quote + identifier.replace(close, close + close) + close;
  }

  /** A qualified name, each part quoted, joined by dots. */
  public String qualified(List<String> names) {
    return names.stream().map(this::quote).collect(Collectors.joining("."));
  }
}
