package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One shard's part of a query: the endpoint, the SQL text in that shard's dialect and its
 * parameter values in order.
 *
 * <p>Parameter values may be null (bound with {@code setObject(i, null)}), so the list is copied
 * into an unmodifiable list that allows nulls.
 */
public record ShardRequest(ShardEndpoint endpoint, String sql, List<@Nullable Object> parameters) {
  public ShardRequest {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(parameters, "parameters");
    parameters = Collections.unmodifiableList(new ArrayList<>(parameters));
  }

  /** Creates a request without parameters. */
  public static ShardRequest of(ShardEndpoint endpoint, String sql) {
    return new ShardRequest(endpoint, sql, List.of());
  }
}
