package io.shardset.transaction;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A scan's use of a transaction's connection to a shard: statements run on the transaction's
 * connection, and closing the lease hands the connection back to the transaction, not to the
 * pool. A lease cannot end or change the transaction: the calls that would are refused.
 */
final class BranchLease implements InvocationHandler {
  /** The calls that would end the transaction or change how it runs. */
  private static final Set<String> REFUSED = Set.of("commit", "rollback", "setAutoCommit",
      "setSavepoint", "releaseSavepoint", "setTransactionIsolation", "setReadOnly");

  private final ShardBranch branch;
  private final Connection connection;
  private final AtomicBoolean closed = new AtomicBoolean();

  private BranchLease(ShardBranch branch) {
    this.branch = branch;
    this.connection = branch.connection();
  }

  /** A lease of the open branch's connection; closing it ends the lease. */
  static Connection of(ShardBranch branch) {
    branch.lease();
    return (Connection) Proxy.newProxyInstance(BranchLease.class.getClassLoader(),
        new Class<?>[] {Connection.class}, new BranchLease(branch));
  }

  @Override public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    final String name = method.getName();
    switch (name) {
    case "close":
      if (closed.compareAndSet(false, true)) {
        branch.unlease();
      }
      return null;
    case "isClosed":
      return closed.get() || connection.isClosed();
    case "equals":
      return proxy == args[0];
    case "hashCode":
      return System.identityHashCode(proxy);
    case "toString":
      return "lease of " + connection;
    default:
      break;
    }
    if (REFUSED.contains(name)) {
      throw new SQLException(name + " is not allowed on a read of a transaction's connection"
          + " to shard '" + branch.shard.name() + "'", "25000");
    }
    if (closed.get() && !"abort".equals(name) && !"unwrap".equals(name)
        && !"isWrapperFor".equals(name)) {
      throw new SQLException("the read's lease of the connection to shard '"
          + branch.shard.name() + "' is closed", "08003");
    }
    try {
      return method.invoke(connection, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
