package io.shardset.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Objects;

/** Where one benchmark database is and how to log in: a JDBC URL, a user and a schema. */
public record JdbcEndpoint(String url, String user, String password, String schema) {
  public JdbcEndpoint {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(schema, "schema");
  }

  /** A plain JDBC connection, as systems L and D use. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, user, password);
  }
}
