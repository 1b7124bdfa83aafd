/** {@code shardset catalog}: putting a model file into a catalog database, and reading it back. */
package io.shardset.cli.catalog;
