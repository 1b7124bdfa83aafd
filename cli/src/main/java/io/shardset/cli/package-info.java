/** The {@code shardset} command line and its subcommands. */
package io.shardset.cli;
