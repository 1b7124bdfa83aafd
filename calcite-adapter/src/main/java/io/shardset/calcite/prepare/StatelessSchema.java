package io.shardset.calcite.prepare;

import org.apache.calcite.schema.Schema;

/**
 * A schema whose tables keep nothing of the connection they are in, and compute what they
 * hold from the statement that reads them (its root schema, say): a plan made on them in one
 * connection runs as well in another, so the process's connections share such plans as they
 * share the plans of ShardSet's own tables (see {@link PlanCache}). A catalog a protocol
 * front end adds to its sessions' roots is one.
 */
public interface StatelessSchema extends Schema {
}
