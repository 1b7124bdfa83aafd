package io.shardset.reshard;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * A condition that matches the rows of a batch of routing keys: {@code k IN (?, ...)} for one
 * column, an OR of ANDs for several; a NULL key part matches with {@code IS NULL}.
 */
final class KeyMatch {
  private final String sql;
  private final List<Object> parameters;

  private KeyMatch(String sql, List<Object> parameters) {
    this.sql = sql;
    this.parameters = parameters;
  }

  /**
   * The condition for these keys.
   *
   * @param columns the quoted key columns
   * @param keys the keys, each with one value per column; at least one key
   */
  static KeyMatch of(List<String> columns, List<List<Object>> keys) {
    List<Object> parameters = new ArrayList<>();
    StringJoiner any = new StringJoiner(" OR ");
    if (columns.size() == 1) {
      StringJoiner in = new StringJoiner(", ", columns.get(0) + " IN (", ")");
      boolean nullKey = false;
      for (List<Object> key : keys) {
        if (key.get(0) == null) {
          nullKey = true;
        } else {
          in.add("?");
          parameters.add(key.get(0));
        }
      }
      if (!parameters.isEmpty()) {
        any.add(in.toString());
      }
      if (nullKey) {
        any.add(columns.get(0) + " IS NULL");
      }
    } else {
      for (List<Object> key : keys) {
        StringJoiner all = new StringJoiner(" AND ", "(", ")");
        for (int i = 0; i < columns.size(); i++) {
          if (key.get(i) == null) {
            all.add(columns.get(i) + " IS NULL");
          } else {
            all.add(columns.get(i) + " = ?");
            parameters.add(key.get(i));
          }
        }
        any.add(all.toString());
      }
    }
    return new KeyMatch(any.toString(), parameters);
  }

  /** The condition's SQL, with a parameter marker per non-null key value. */
  String sql() {
    return sql;
  }

  /** Binds the key values to the statement's parameters, from the first. */
  void bind(PreparedStatement statement) throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      statement.setObject(i + 1, parameters.get(i));
    }
  }
}
