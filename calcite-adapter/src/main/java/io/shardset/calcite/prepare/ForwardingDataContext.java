package io.shardset.calcite.prepare;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.Objects;

/**
 * A statement's data context as a plan it runs sees it: the statement's own, with some of
 * its variables answered otherwise ({@link #get}).
 */
abstract class ForwardingDataContext implements DataContext {
  private final DataContext delegate;

  ForwardingDataContext(DataContext delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override public @Nullable SchemaPlus getRootSchema() {
    return delegate.getRootSchema();
  }

  @Override public JavaTypeFactory getTypeFactory() {
    return delegate.getTypeFactory();
  }

  @Override public QueryProvider getQueryProvider() {
    return delegate.getQueryProvider();
  }

  @Override public @Nullable Object get(String name) {
    return delegate.get(name);
  }
}
