/** Small helpers shared by every module. */
package io.shardset.util;
