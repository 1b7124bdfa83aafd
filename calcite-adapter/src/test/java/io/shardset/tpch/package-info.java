/**
 * The TPC-H correctness suite: the 22 TPC-H queries over generated TPC-H data spread over four
 * shards with every sharding method, compared with one unsharded database holding the same rows.
 */
package io.shardset.tpch;
