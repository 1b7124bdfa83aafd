package io.shardset.transaction;

import io.shardset.execution.ShardEndpoint;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;

/**
 * A shard endpoint over another whose connections record the SQL they execute through plain
 * statements, and may report another database product than theirs (one ShardSet knows no
 * two-phase commit of).
 */
final class ProxyEndpoint implements ShardEndpoint {
  private final ShardEndpoint target;
  private final @Nullable String product;
  private final List<String> executed = new ArrayList<>();

  ProxyEndpoint(ShardEndpoint target, @Nullable String product) {
    this.target = target;
    this.product = product;
  }

  /** The SQL executed through statements of this endpoint's connections, upper-cased. */
  synchronized List<String> executed() {
    return List.copyOf(executed);
  }

  /** Whether any executed statement contained this text (upper-case). */
  boolean executedAny(String text) {
    return executed().stream().anyMatch(sql -> sql.contains(text));
  }

  private synchronized void record(String sql) {
    executed.add(sql.toUpperCase(Locale.ROOT));
  }

  @Override public String name() {
    return target.name();
  }

  @Override public Connection connect() throws SQLException {
    final Connection connection = target.connect();
    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Connection.class}, new Handler(connection, (proxy, method, args) -> {
          if (method.getName().equals("getMetaData") && product != null) {
            final DatabaseMetaData metaData = connection.getMetaData();
            return Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DatabaseMetaData.class}, new Handler(metaData,
                    (p, m, a) -> m.getName().equals("getDatabaseProductName") ? product
                        : invoke(metaData, m, a)));
          }
          if (method.getName().equals("createStatement")) {
            final Statement statement = (Statement) invoke(connection, method, args);
            return Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Statement.class}, new Handler(statement, (p, m, a) -> {
                  if (m.getName().startsWith("execute") && a != null && a.length > 0
                      && a[0] instanceof String sql) {
                    record(sql);
                  }
                  return invoke(statement, m, a);
                }));
          }
          return invoke(connection, method, args);
        }));
  }

  @Override public void abandon(Connection connection, Executor signals) {
    target.abandon(((Handler) Proxy.getInvocationHandler(connection)).target(), signals);
  }

  @Override public String redact(String message) {
    return target.redact(message);
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Calls {@code behaviour}, knowing the object it stands for. */
  private record Handler(Connection targetConnection, Object targetObject,
      InvocationHandler behaviour) implements InvocationHandler {
    Handler(Object target, InvocationHandler behaviour) {
      this(target instanceof Connection c ? c : null, target, behaviour);
    }

    Connection target() {
      return targetConnection;
    }

    @Override public Object invoke(Object proxy, Method method, Object[] args)
        throws Throwable {
      return behaviour.invoke(proxy, method, args);
    }
  }
}
