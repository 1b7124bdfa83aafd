package io.shardset.calcite;

import io.shardset.testing.Backend;
import io.shardset.testing.Connector;
import io.shardset.testing.ShardFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;

import static io.shardset.calcite.MetadataTest.FOREIGN_KEY;
import static io.shardset.calcite.MetadataTest.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Foreign keys and indexes of PostgreSQL shards, whose tables and columns have other names
 * than the logical ones (lower case, and {@code physicalName}s): listed in logical names, a
 * key to a table of the same family and one to a duplicated table.
 */
class PostgresRelationsTest {
  private ShardFixture fixture;
  private Connection connection;

  @BeforeEach void create() throws SQLException {
    fixture = ShardFixture.create(Backend.POSTGRES, 2,
        "CREATE TABLE countries (code CHAR(2) PRIMARY KEY, name VARCHAR(40))",
        "CREATE TABLE clients (customer_id BIGINT PRIMARY KEY,"
            + " country CHAR(2) NOT NULL REFERENCES countries (code), email VARCHAR(80))",
        "CREATE UNIQUE INDEX clients_email ON clients (email)",
        "CREATE TABLE purchases (purchase_id BIGINT NOT NULL, customer_id BIGINT NOT NULL"
            + " REFERENCES clients (customer_id) ON DELETE CASCADE,"
            + " PRIMARY KEY (customer_id, purchase_id))");
    connection = Connector.SHARDSET.open(fixture.model("\"tables\": [\n"
        + "  {\"name\": \"COUNTRIES\", \"method\": \"duplicated\"},\n"
        + "  {\"name\": \"CUSTOMERS\", \"physicalName\": \"clients\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"CUSTOMER_ID\"]},\n"
        + "  {\"name\": \"ORDERS\", \"physicalName\": \"purchases\","
        + " \"method\": \"consistent-hash\", \"shardKey\": [\"CUSTOMER_ID\"]}]"));
  }

  @AfterEach void close() throws SQLException {
    try {
      connection.close();
    } finally {
      fixture.close();
    }
  }

  @Test void foreignKeysAreInLogicalNames() throws SQLException {
    final DatabaseMetaData md = connection.getMetaData();
    final String ordersCustomers = "null:S:CUSTOMERS:CUSTOMER_ID:null:S:ORDERS:CUSTOMER_ID:1:3:0"
        + ":purchases_customer_id_fkey:CUSTOMERS_PK:7";
    final String customersCountries = "null:S:COUNTRIES:CODE:null:S:CUSTOMERS:COUNTRY:1:3:3"
        + ":clients_country_fkey:COUNTRIES_PK:7";
    assertEquals(List.of(ordersCustomers),
        rows(md.getImportedKeys(null, ShardFixture.SCHEMA, "ORDERS"), FOREIGN_KEY));
    assertEquals(List.of(customersCountries),
        rows(md.getImportedKeys(null, ShardFixture.SCHEMA, "CUSTOMERS"), FOREIGN_KEY));
    assertEquals(List.of(customersCountries),
        rows(md.getExportedKeys(null, ShardFixture.SCHEMA, "COUNTRIES"), FOREIGN_KEY));
    assertEquals(List.of(customersCountries, ordersCustomers),
        rows(md.getImportedKeys(null, null, null), FOREIGN_KEY));
  }

  private static final String[] INDEX = {"TABLE_NAME", "NON_UNIQUE", "INDEX_NAME", "TYPE",
      "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC"};

  /** A unique index without the shard key is not unique in the table; a duplicated table's
   * is. */
  @Test void indexesAreInLogicalNames() throws SQLException {
    final DatabaseMetaData md = connection.getMetaData();
    assertEquals(List.of("CUSTOMERS:false:clients_pkey:3:1:CUSTOMER_ID:A",
        "CUSTOMERS:true:clients_email:3:1:EMAIL:A"),
        rows(md.getIndexInfo(null, ShardFixture.SCHEMA, "CUSTOMERS", false, true), INDEX));
    assertEquals(List.of("COUNTRIES:false:countries_pkey:3:1:CODE:A"),
        rows(md.getIndexInfo(null, ShardFixture.SCHEMA, "COUNTRIES", false, true), INDEX));
    assertEquals(List.of("ORDERS:false:purchases_pkey:3:1:CUSTOMER_ID:A",
        "ORDERS:false:purchases_pkey:3:2:PURCHASE_ID:A"),
        rows(md.getIndexInfo(null, ShardFixture.SCHEMA, "ORDERS", true, true), INDEX));
  }
}
