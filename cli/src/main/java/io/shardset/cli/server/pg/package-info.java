/**
 * Serving a ShardSet model over PostgreSQL's frontend/backend protocol, so that psql and every
 * language's PostgreSQL driver connect unchanged: the protocol's pieces that need no network,
 * built first.
 */
package io.shardset.cli.server.pg;
