-- The tables of conf/example-model.json, created on each of its H2 shards when a connection
-- opens (the model's INIT=RUNSCRIPT). Shards of your own model hold tables you create on them:
-- the same table, with the same columns and primary key, on every shard the model places it.
CREATE TABLE IF NOT EXISTS CUSTOMERS (
  CUSTOMER_ID BIGINT NOT NULL PRIMARY KEY,
  NAME VARCHAR(100) NOT NULL,
  COUNTRY CHAR(2) NOT NULL
);
CREATE TABLE IF NOT EXISTS ORDERS (
  CUSTOMER_ID BIGINT NOT NULL,
  ORDER_ID BIGINT NOT NULL,
  ORDERED_ON DATE NOT NULL,
  AMOUNT DECIMAL(12, 2) NOT NULL,
  PRIMARY KEY (CUSTOMER_ID, ORDER_ID)
);
CREATE TABLE IF NOT EXISTS COUNTRIES (
  CODE CHAR(2) NOT NULL PRIMARY KEY,
  NAME VARCHAR(100) NOT NULL
);
