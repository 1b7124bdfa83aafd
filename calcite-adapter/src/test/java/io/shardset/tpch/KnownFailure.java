package io.shardset.tpch;

import java.util.Objects;

/**
 * A TPC-H query that does not yet run through ShardSet: the exact error it fails with, and
 * why. The suite checks that the query still fails with exactly this error, so that a fix, or
 * a different failure, is noticed.
 *
 * @param error the innermost cause of the failure, as {@link Throwable#toString()} gives it
 * @param reason what is at fault, with the smallest query that shows it
 */
record KnownFailure(String error, String reason) {
  KnownFailure {
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(reason, "reason");
  }
}
