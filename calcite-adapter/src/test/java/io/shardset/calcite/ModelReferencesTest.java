package io.shardset.calcite;

import io.shardset.model.ModelException;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static io.shardset.calcite.MetadataTest.FOREIGN_KEY;
import static io.shardset.calcite.MetadataTest.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A table's {@code references} in the model: listed as foreign keys where the shards declare
 * none, and checked against the tables' columns when a connection opens.
 */
class ModelReferencesTest {
  private ShardFixture fixture;

  @BeforeEach void create() {
    fixture = ShardFixture.h2(2, "CREATE TABLE T (K BIGINT PRIMARY KEY, N INTEGER)",
        "CREATE TABLE U (C BIGINT, M INTEGER)");
  }

  @AfterEach void close() throws SQLException {
    fixture.close();
  }

  /** A model whose table U, sharded on another key than T, has these references. */
  private String model(String references) {
    return fixture.model("\"tables\": [\n"
        + "  {\"name\": \"T\", \"method\": \"consistent-hash\", \"shardKey\": [\"K\"]},\n"
        + "  {\"name\": \"U\", \"method\": \"consistent-hash\", \"shardKey\": [\"M\"],\n"
        + "   \"references\": " + references + "}]");
  }

  @Test void aReferenceIsAForeignKeyOfNoAction() throws SQLException {
    try (Connection connection = Connector.SHARDSET.open(model("[{\"name\": \"U_OWNER\","
        + " \"columns\": [\"c\"], \"table\": \"T\", \"tableColumns\": [\"K\"]}]"))) {
      assertEquals(List.of("null:S:T:K:null:S:U:C:1:3:3:U_OWNER:T_PK:7"), rows(connection
          .getMetaData().getImportedKeys(null, ShardFixture.SCHEMA, "U"), FOREIGN_KEY));
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "[{\"columns\": [\"X\"], \"table\": \"T\"}]"
          + "|reference 'U_T_FK': table 'U' has no column 'X'; its columns are C, M",
      "[{\"columns\": [\"C\"], \"table\": \"V\"}]"
          + "|entry 1, key 'table': no table 'V' in the model; tables are T, U",
      "[{\"columns\": [\"C\"], \"table\": \"T\", \"tableColumns\": [\"Y\"]}]"
          + "|reference 'U_T_FK': table 'T' has no column 'Y'; its columns are K, N",
      "[{\"columns\": [\"C\", \"M\"], \"table\": \"T\"}]"
          + "|reference 'U_T_FK': 2 columns reference its primary key of 1 (K)",
      "[{\"columns\": [\"M\"], \"table\": \"U\"}]"
          + "|reference 'U_U_FK': table 'U' has no primary key (its shards declare none"
          + " alike); name its columns in tableColumns",
      "[{\"columns\": [\"C\"], \"table\": \"T\", \"tableColumns\": [\"K\", \"N\"]}]"
          + "|entry 1, key 'tableColumns': 2 columns reference 1 (C)",
      "[{\"column\": [\"C\"], \"table\": \"T\"}]"
          + "|entry 1, key 'column': unknown key; did you mean 'columns'?"})
  void aWrongReferenceFailsTheConnection(String references, String problem) {
    final Exception e = assertThrows(Exception.class,
        () -> Connector.SHARDSET.open(model(references)).close());
    Throwable t = e;
    while (!(t instanceof ModelException) && t.getCause() != null) {
      t = t.getCause();
    }
    assertEquals("Invalid ShardSet model: schema 'S', table 'U', field 'references': "
        + problem, t.getMessage());
  }
}
