/**
 * Serving a ShardSet model to remote JDBC clients over Avatica's HTTP protocol: the server, its
 * settings, and the guard on the connection properties clients may send.
 */
package io.shardset.cli.server;
