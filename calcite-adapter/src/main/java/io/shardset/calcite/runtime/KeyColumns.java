package io.shardset.calcite.runtime;

import io.shardset.model.ColumnDefault;
import io.shardset.model.ColumnInfo;
import io.shardset.session.KeyRequest;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The columns of a table an INSERT's generated keys list, as the statement asked for them. */
final class KeyColumns {
  private KeyColumns() {
  }

  /**
   * The positions of the columns asked for: by name (ignoring case) or position, or, for
   * {@code RETURN_GENERATED_KEYS}, the columns that take a global sequence's values and the
   * identity columns the INSERT leaves to the shards (or, when there are none, every column it
   * leaves to them: a key with a DEFAULT of its own); none without a request.
   *
   * @throws SQLException (42S22) for a column the table does not have
   */
  static List<Integer> of(@Nullable KeyRequest request, WriteTarget target)
      throws SQLException {
    if (request == null) {
      return List.of();
    }
    final List<ColumnInfo> columns = target.table().layout().columns();
    if (request.names() == null && request.positions() == null) {
      final List<Integer> generated = new ArrayList<>(target.sequenced());
      target.defaulted().stream()
          .filter(c -> columns.get(c).fill() == ColumnDefault.IDENTITY)
          .forEach(generated::add);
      return generated.isEmpty() ? target.defaulted() : generated;
    }
    final List<Integer> keys = new ArrayList<>();
    if (request.positions() != null) {
      for (int position : request.positions()) {
        if (position < 1 || position > columns.size()) {
          throw new SQLException("table " + target.table().qualifiedName() + " has no column "
              + position + " to return as a generated key", "42S22");
        }
        keys.add(position - 1);
      }
      return keys;
    }
    for (String name : request.names()) {
      int found = -1;
      for (int c = 0; c < columns.size(); c++) {
        if (columns.get(c).name().equalsIgnoreCase(name)) {
          found = c;
          break;
        }
      }
      if (found < 0) {
        throw new SQLException("table " + target.table().qualifiedName() + " has no column '"
            + name + "' to return as a generated key", "42S22");
      }
      keys.add(found);
    }
    return keys;
  }
}
