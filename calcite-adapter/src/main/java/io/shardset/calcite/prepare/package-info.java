/**
 * Preparing a statement on {@code jdbc:shardset:}: the plan cache that lets statements
 * differing only in literals share one plan, the parser's, validator's and converter's
 * changes to Calcite's preparation, and the signatures that bind a shared plan to one
 * statement.
 */
package io.shardset.calcite.prepare;
