package io.shardset.clients;

import org.hibernate.dialect.DatabaseVersion;
import org.hibernate.dialect.Dialect;

/**
 * The plainest Hibernate dialect, for ShardSet: {@link Dialect}'s standard SQL and none of a
 * database's own syntax. Public, with a public constructor, because Hibernate instantiates
 * the class named by {@code hibernate.dialect}.
 */
public final class GenericDialect extends Dialect {
  public GenericDialect() {
    super(DatabaseVersion.make(1, 0));
  }
}
