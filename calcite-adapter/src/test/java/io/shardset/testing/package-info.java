/**
 * Test fixtures shared by unit and integration tests: shards whose JDBC traffic can be counted
 * and made to fail.
 */
package io.shardset.testing;
