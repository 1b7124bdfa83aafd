/**
 * ShardSet's remote JDBC driver ({@code jdbc:shardset:remote:}): Avatica's client with
 * ShardSet's failures, metadata, {@code java.time} values and client-side timing.
 */
package io.shardset.calcite.remote;
