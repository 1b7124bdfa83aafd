/** The {@code shardset reshard} command: show, plan and apply moves of hash ranges. */
package io.shardset.cli.reshard;
