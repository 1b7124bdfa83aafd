/** The demo data set and the tool that places it on a model's shards. */
package io.shardset.testdata;
