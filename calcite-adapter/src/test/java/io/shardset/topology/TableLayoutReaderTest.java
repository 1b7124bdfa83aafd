package io.shardset.topology;

import io.shardset.model.ColumnInfo;
import io.shardset.model.ModelException;
import io.shardset.model.PhysicalTable;
import io.shardset.model.ShardSetModel;
import io.shardset.model.ShardSpec;
import io.shardset.model.ShardingMethod;
import io.shardset.model.TableLayout;
import io.shardset.model.TableSpec;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link TableLayoutReader} against H2 shards, some folding names to lower case. */
class TableLayoutReaderTest {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final Map<String, Connection> connections = new LinkedHashMap<>();
  private final List<ShardSpec> shards = new ArrayList<>();
  private final Map<String, String> databases = new LinkedHashMap<>();

  @AfterEach void closeShards() throws SQLException {
    for (Connection connection : connections.values()) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("SHUTDOWN");
      }
      connection.close();
    }
  }

  /** Adds an in-memory H2 shard, created by these statements. */
  private void shard(String name, String urlOptions, String jdbcSchema, String... ddl)
      throws SQLException {
    String database = "layout" + DATABASES.incrementAndGet();
    String url = "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1" + urlOptions;
    databases.put(name, database);
    Connection connection = DriverManager.getConnection(url, "sa", "");
    try (Statement statement = connection.createStatement()) {
      for (String sql : ddl) {
        statement.execute(sql);
      }
    }
    connections.put(name, connection);
    shards.add(new ShardSpec(name, url, "sa", "", null, null, jdbcSchema, "default"));
  }

  /** Adds a shard that stores unquoted names in upper case, like H2 and Oracle. */
  private void upperCaseShard(String name, String... ddl) throws SQLException {
    shard(name, "", null, ddl);
  }

  /** Adds a shard that stores unquoted names in lower case, like PostgreSQL. */
  private void lowerCaseShard(String name, String... ddl) throws SQLException {
    shard(name, ";DATABASE_TO_LOWER=TRUE", null, ddl);
  }

  private TableLayout read(String physicalName, String... shardKey) {
    ShardSetModel model = new ShardSetModel("SALES", shards, null, List.of(), null, List.of());
    TableSpec table = new TableSpec("ORDERS", physicalName,
        shardKey.length == 0 ? ShardingMethod.DUPLICATED : ShardingMethod.CONSISTENT_HASH,
        List.of(shardKey), shards.stream().map(ShardSpec::name).toList(), "default",
        List.of(), List.of());
    return TableLayoutReader.read(model, table, connections::get);
  }

  private void assertFails(String physicalName, String key, String message) {
    ModelException e = assertThrows(ModelException.class,
        () -> read(physicalName, key == null ? new String[0] : new String[] {key}));
    assertEquals(message, e.getMessage());
  }

  @Test void readsLogicalColumnsAndEachShardsPhysicalNames() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (CUST_ID BIGINT NOT NULL, NAME VARCHAR(20),"
        + " AMOUNT DECIMAL(12, 2), ORDER_DAY DATE)");
    lowerCaseShard("s1", "create table orders (cust_id bigint not null, name varchar(40),"
        + " amount decimal(10, 4), order_day date)");
    TableLayout layout = read("ORDERS", "cust_id");
    assertEquals(
        List.of(new ColumnInfo("CUST_ID", Types.BIGINT, "BIGINT", 64, 0, false),
            new ColumnInfo("NAME", Types.VARCHAR, "CHARACTER VARYING", 40, 0, true),
            new ColumnInfo("AMOUNT", Types.DECIMAL, "DECIMAL", 14, 4, true),
            new ColumnInfo("ORDER_DAY", Types.DATE, "DATE", 10, 0, true)),
        layout.columns());
    assertEquals(
        List.of(
            new PhysicalTable("s0", databases.get("s0").toUpperCase(Locale.ROOT), "PUBLIC",
                "ORDERS", List.of("CUST_ID", "NAME", "AMOUNT", "ORDER_DAY")),
            new PhysicalTable("s1", databases.get("s1"), "public", "orders",
                List.of("cust_id", "name", "amount", "order_day"))),
        layout.shards());
    assertEquals(0, layout.columnIndex("CUST_ID"));
    assertEquals(2, layout.columnIndex("amount"));
    assertEquals(-1, layout.columnIndex("PRICE"));
  }

  @Test void keepsMixedCaseNamesOfLowerCaseShards() throws SQLException {
    lowerCaseShard("s0", "create table orders (id int, \"Region\" varchar(2))");
    assertEquals(List.of("ID", "Region"), read("orders").columnNames());
  }

  @Test void prefersTheExactPhysicalName() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE \"orders\" (LOWER_ID INT)",
        "CREATE TABLE ORDERS (UPPER_ID INT)");
    assertEquals(List.of("LOWER_ID"), read("orders").columnNames());
    assertEquals(List.of("UPPER_ID"), read("ORDERS").columnNames());
  }

  @Test void rejectsAPhysicalNameThatMatchesSeveralTablesIgnoringCase() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE \"orders\" (ID INT)", "CREATE TABLE ORDERS (ID INT)");
    assertFails("Orders", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'physicalName': table 'Orders' is ambiguous on shard 's0': it matches"
        + " PUBLIC.ORDERS, PUBLIC.orders; give its exact name, or the shard's jdbcSchema");
  }

  @Test void prefersTheCurrentSchemaWithoutJdbcSchema() throws SQLException {
    // H2 also has a system table INFORMATION_SCHEMA.USERS.
    upperCaseShard("s0", "CREATE TABLE USERS (ID INT)", "CREATE SCHEMA OTHER",
        "CREATE TABLE OTHER.USERS (OTHER_ID INT)");
    TableLayout layout = read("USERS");
    assertEquals("PUBLIC", layout.shard("s0").schema());
    assertEquals(List.of("ID"), layout.columnNames());
  }

  @Test void looksOnlyInTheJdbcSchema() throws SQLException {
    shard("s0", "", "SALES_2", "CREATE SCHEMA SALES_2", "CREATE SCHEMA SALESX2",
        "CREATE TABLE SALES_2.ORDERS (ID INT)", "CREATE TABLE SALESX2.ORDERS (X INT)",
        "CREATE TABLE PUBLIC.ORDERS (Y INT)");
    TableLayout layout = read("ORDERS");
    assertEquals("SALES_2", layout.shard("s0").schema());
    assertEquals(List.of("ID"), layout.columnNames());
  }

  @Test void missingTable() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (ID INT)");
    upperCaseShard("s1", "CREATE TABLE ORDER_LINES (ID INT)");
    assertFails("ORDERS", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'physicalName': table 'ORDERS' not found on shard 's1'");
  }

  @Test void missingTableInTheJdbcSchema() throws SQLException {
    shard("s0", "", "SALES", "CREATE SCHEMA SALES", "CREATE TABLE PUBLIC.ORDERS (ID INT)");
    assertFails("ORDERS", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'physicalName': table 'ORDERS' not found in schema 'SALES' on shard 's0'");
  }

  @Test void shardsWithDifferentColumnNames() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (ID INT, REGION VARCHAR(2))");
    lowerCaseShard("s1", "create table orders (id int, country varchar(2))");
    assertFails("ORDERS", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'columns': shard 's1' has column 'COUNTRY' at position 2 where shard 's0'"
        + " has 'REGION'");
  }

  @Test void shardsWithDifferentColumnCounts() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (ID INT, REGION VARCHAR(2))");
    upperCaseShard("s1", "CREATE TABLE ORDERS (ID INT, REGION VARCHAR(2), NOTE VARCHAR(9))");
    assertFails("ORDERS", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'columns': shard 's1' has 3 columns (ID, REGION, NOTE) where shard 's0'"
        + " has 2 (ID, REGION)");
  }

  @Test void shardsWithIncompatibleTypes() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (ID INT, AMOUNT DECIMAL(10, 2))");
    upperCaseShard("s1", "CREATE TABLE ORDERS (ID INT, AMOUNT DOUBLE PRECISION)");
    assertFails("ORDERS", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'columns': shard 's1' has column 'AMOUNT' of type DOUBLE"
        + " (DOUBLE PRECISION) where shard 's0' has DECIMAL");
  }

  @Test void integerTypesOfDifferentSizesDisagree() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (ID INT)");
    upperCaseShard("s1", "CREATE TABLE ORDERS (ID BIGINT)");
    assertFails("ORDERS", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'columns': shard 's1' has column 'ID' of type BIGINT where shard 's0' has"
        + " INTEGER");
  }

  @Test void characterTypesAgree() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (CODE CHAR(3) NOT NULL)");
    upperCaseShard("s1", "CREATE TABLE ORDERS (CODE VARCHAR(5) NOT NULL)");
    assertEquals(List.of(new ColumnInfo("CODE", Types.CHAR, "CHARACTER", 5, 0, false)),
        read("ORDERS").columns());
  }

  @Test void columnsWithTheSameLogicalName() throws SQLException {
    lowerCaseShard("s0", "create table orders (id int, \"ID\" int)");
    assertFails("orders", null, "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'columns': columns 'id' and 'ID' on shard 's0' both have the logical name"
        + " 'ID'");
  }

  @Test void shardKeyColumnThatDoesNotExist() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (CUST_ID INT, NAME VARCHAR(9), ORDER_DAY DATE)");
    assertFails("ORDERS", "CUSTID", "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'shardKey': column 'CUSTID' does not exist; columns are CUST_ID, NAME,"
        + " ORDER_DAY");
  }

  @Test void shardKeyColumnThatMatchesSeveralIgnoringCase() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (\"Id\" INT, ID INT)");
    assertFails("ORDERS", "id", "Invalid ShardSet model: schema 'SALES', table 'ORDERS',"
        + " field 'shardKey': column 'id' matches several columns ignoring case: Id, ID");
  }

  @Test void failingMetadataNamesTheShard() throws SQLException {
    upperCaseShard("s0", "CREATE TABLE ORDERS (ID INT)");
    connections.get("s0").close();
    ModelException e = assertThrows(ModelException.class, () -> read("ORDERS"));
    assertEquals("Invalid ShardSet model: schema 'SALES', table 'ORDERS': cannot read the"
        + " metadata of shard 's0': " + e.getCause().getMessage(), e.getMessage());
    connections.put("s0", DriverManager.getConnection(shards.get(0).jdbcUrl(), "sa", ""));
  }
}
