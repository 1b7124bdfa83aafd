package io.shardset.calcite;

import io.shardset.topology.IdentifierQuoting;

import org.apache.calcite.sql.SqlDialect;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The SQL dialects of H2, PostgreSQL and MariaDB shards without a connection: {@link Dialects}
 * builds them from the answers these databases' drivers gave to the metadata questions it
 * asks (H2 2.3.232, PostgreSQL 15, MariaDB 10.11, in a ShardSet shard session), so a planning
 * test renders the SQL that real shards of those products receive.
 */
final class RecordedProducts {
  /** The yes-or-no questions {@link Dialects} and Calcite's dialect factory ask. */
  private static final Set<String> QUESTIONS = Set.of("nullsAreSortedAtEnd",
      "nullsAreSortedAtStart", "nullsAreSortedHigh", "nullsAreSortedLow",
      "storesLowerCaseIdentifiers", "storesLowerCaseQuotedIdentifiers",
      "storesMixedCaseIdentifiers", "storesMixedCaseQuotedIdentifiers",
      "storesUpperCaseIdentifiers", "storesUpperCaseQuotedIdentifiers",
      "supportsMixedCaseIdentifiers", "supportsMixedCaseQuotedIdentifiers");

  /** The products a declared shard can be, named by the start of its JDBC URL. */
  enum Product {
    H2("jdbc:h2:", "H2", "2.3.232 (2024-08-11)", 2, 3, "\"",
        Set.of("nullsAreSortedLow", "storesUpperCaseIdentifiers",
            "supportsMixedCaseQuotedIdentifiers")),
    POSTGRESQL("jdbc:postgresql:", "PostgreSQL", "15.20 (Debian 15.20-0+deb12u1)", 15, 20, "\"",
        Set.of("nullsAreSortedHigh", "storesLowerCaseIdentifiers",
            "supportsMixedCaseQuotedIdentifiers")),
    MARIADB("jdbc:mariadb:", "MariaDB", "10.11.19-MariaDB-0+deb12u1", 10, 11, "`",
        Set.of("nullsAreSortedAtEnd", "nullsAreSortedLow", "supportsMixedCaseIdentifiers",
            "supportsMixedCaseQuotedIdentifiers"));

    /** A session's sql_mode as ShardSet's MariaDB shard sessions have it: what matters is
     * NO_BACKSLASH_ESCAPES. */
    private static final String MARIADB_SQL_MODE =
        "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION,NO_BACKSLASH_ESCAPES,PIPES_AS_CONCAT";

    private final String urlPrefix;
    private final Map<String, Object> answers;

    /**
     * Creates a product's recorded answers.
     *
     * @param yes the questions the driver answered with true; it answered the others
     *     with false
     */
    Product(String urlPrefix, String name, String version, int major, int minor,
        String quote, Set<String> yes) {
      this.urlPrefix = urlPrefix;
      final Map<String, Object> all = new HashMap<>(Map.of("getDatabaseProductName", name,
          "getDatabaseProductVersion", version, "getDatabaseMajorVersion", major,
          "getDatabaseMinorVersion", minor, "getIdentifierQuoteString", quote));
      QUESTIONS.forEach(question -> all.put(question, yes.contains(question)));
      this.answers = Map.copyOf(all);
    }

    /** The product of a shard with this JDBC URL. */
    static Product ofUrl(String jdbcUrl) {
      for (Product product : values()) {
        if (jdbcUrl.toLowerCase(Locale.ROOT).startsWith(product.urlPrefix)) {
          return product;
        }
      }
      throw new IllegalArgumentException("no recorded product for shard URL " + jdbcUrl
          + "; URLs start with jdbc:h2:, jdbc:postgresql: or jdbc:mariadb:");
    }

    /** How a shard of this product quotes names, as its metadata says. */
    IdentifierQuoting quoting() {
      return new IdentifierQuoting((String) answers.get("getIdentifierQuoteString"));
    }

    /** The dialect ShardSet builds for a shard of this product, shared with its kind as the
     * runtime shares it. */
    SqlDialect dialect() {
      try {
        final Dialects dialects = ShardSetRuntime.get().dialects();
        return dialects.of(proxy(DatabaseMetaData.class, (p, method, args) ->
            switch (method.getName()) {
            case "getConnection" -> session();
            default -> {
              final Object answer = answers.get(method.getName());
              if (answer == null) {
                throw new UnsupportedOperationException("no recorded answer to "
                    + method.getName() + " of " + this);
              }
              yield answer;
            }
            }));
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    /** A session that answers the one query {@link Dialects} sends: the sql_mode. */
    private static Connection session() {
      final ResultSet sqlMode = proxy(ResultSet.class, (p, method, args) ->
          switch (method.getName()) {
          case "next" -> true;
          case "getString" -> MARIADB_SQL_MODE;
          case "close" -> null;
          default -> throw new UnsupportedOperationException(method.getName());
          });
      final Statement statement = proxy(Statement.class, (p, method, args) ->
          switch (method.getName()) {
          case "executeQuery" -> sqlMode;
          case "close" -> null;
          default -> throw new UnsupportedOperationException(method.getName());
          });
      return proxy(Connection.class, (p, method, args) -> {
        if (method.getName().equals("createStatement")) {
          return statement;
        }
        throw new UnsupportedOperationException(method.getName());
      });
    }
  }

  private RecordedProducts() {
  }

  private static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return type.cast(Proxy.newProxyInstance(RecordedProducts.class.getClassLoader(),
        new Class<?>[] {type}, handler));
  }
}
