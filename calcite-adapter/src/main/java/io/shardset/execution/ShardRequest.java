package io.shardset.execution;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One shard's part of a query: the endpoint, the SQL text in that shard's dialect and its
 * parameter values in order, and the requests that give the same rows on other shards.
 *
 * <p>Parameter values may be null (bound with {@code setObject(i, null)}), so the list is copied
 * into an unmodifiable list that allows nulls.
 *
 * @param fallbacks requests for the same rows on other shards (a duplicated table's copies), in
 *     the order to try them when this request's shard cannot be reached
 */
public record ShardRequest(ShardEndpoint endpoint, String sql, List<@Nullable Object> parameters,
    List<ShardRequest> fallbacks) {
  public ShardRequest {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(parameters, "parameters");
    parameters = Collections.unmodifiableList(new ArrayList<>(parameters));
    fallbacks = List.copyOf(fallbacks);
  }

  /** Creates a request without fallbacks. */
  public ShardRequest(ShardEndpoint endpoint, String sql, List<@Nullable Object> parameters) {
    this(endpoint, sql, parameters, List.of());
  }

  /** Returns this request with shards to try, in order, when its own cannot be reached. */
  public ShardRequest withFallbacks(List<ShardRequest> fallbacks) {
    return new ShardRequest(endpoint, sql, parameters, fallbacks);
  }

  /** Creates a request without parameters. */
  public static ShardRequest of(ShardEndpoint endpoint, String sql) {
    return new ShardRequest(endpoint, sql, List.of());
  }
}
