package io.shardset.cli.server.pg;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The RETURNING clauses {@link PgReturning} reads, and those it refuses. */
class PgReturningTest {
  @Test void readsColumnNamesAndStar() {
    assertEquals(Optional.of(new PgReturning("INSERT INTO items (id) VALUES ($1)", null,
            "items", null)),
        PgReturning.of("INSERT INTO items (id) VALUES ($1)\nRETURNING *"));
    assertEquals(Optional.of(new PgReturning("insert into Public.\"Items\" values (1, 'a')",
            "public", "Items", List.of("ID", "name"))),
        PgReturning.of("insert into Public.\"Items\" values (1, 'a') returning \"ID\", Name;"));
  }

  @Test void findsNoClauseInStringsCommentsOrOtherStatements() {
    assertEquals(Optional.empty(), PgReturning.of(
        "INSERT INTO items (id, name) VALUES (1, 'returning *') -- returning id"));
    assertEquals(Optional.empty(), PgReturning.of(
        "INSERT INTO items (id, \"returning\") VALUES (1, 2)"));
    assertEquals(Optional.empty(), PgReturning.of("UPDATE items SET grp = 1 RETURNING id"));
  }

  @Test void refusesExpressions() {
    final PgProtocolException e = assertThrows(PgProtocolException.class,
        () -> PgReturning.of("INSERT INTO items (id) VALUES (1) RETURNING id + 1"));
    assertEquals("0A000", e.sqlState());
    assertEquals("RETURNING takes column names or *, not: id + 1", e.getMessage());
  }
}
