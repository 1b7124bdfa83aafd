package io.shardset.tpch;

/**
 * How the TPC-H tables are spread over four shards {@code s0..s3}: every sharding method, with
 * the tables that TPC-H joins on their keys placed together.
 */
final class TpchLayout {
  /** The operand's table entries. */
  static final String TABLES = "\"tables\": [\n"
      // Orders and their lines share the chunks of the order key: a join on it stays together.
      + "  {\"name\": \"ORDERS\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"O_ORDERKEY\"]},\n"
      + "  {\"name\": \"LINEITEM\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"L_ORDERKEY\"]},\n"
      // 1,500 customers at scale factor 0.01; the open ends take any other key.
      + "  {\"name\": \"CUSTOMER\", \"method\": \"range\", \"shardKey\": [\"C_CUSTKEY\"],\n"
      + "   \"ranges\": [{\"shard\": \"s0\", \"to\": 376},\n"
      + "              {\"shard\": \"s1\", \"from\": 376, \"to\": 751},\n"
      + "              {\"shard\": \"s2\", \"from\": 751, \"to\": 1126},\n"
      + "              {\"shard\": \"s3\", \"from\": 1126}]},\n"
      + "  {\"name\": \"PART\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"P_PARTKEY\"]},\n"
      + "  {\"name\": \"PARTSUPP\", \"method\": \"consistent-hash\","
      + " \"shardKey\": [\"PS_PARTKEY\"]},\n"
      // Nations 22, 23 and 24 are listed nowhere and reach s3 as its default.
      + "  {\"name\": \"SUPPLIER\", \"method\": \"list\", \"shardKey\": [\"S_NATIONKEY\"],\n"
      + "   \"lists\": [{\"shard\": \"s0\", \"values\": [0, 1, 2, 3, 4, 5]},\n"
      + "             {\"shard\": \"s1\", \"values\": [6, 7, 8, 9, 10, 11]},\n"
      + "             {\"shard\": \"s2\", \"values\": [12, 13, 14, 15, 16, 17]},\n"
      + "             {\"shard\": \"s3\", \"values\": [18, 19, 20, 21]},\n"
      + "             {\"shard\": \"s3\", \"default\": true}]},\n"
      + "  {\"name\": \"NATION\", \"method\": \"duplicated\"},\n"
      + "  {\"name\": \"REGION\", \"method\": \"duplicated\"}]";

  /** The number of shards the layout names. */
  static final int SHARDS = 4;

  private TpchLayout() {
  }
}
