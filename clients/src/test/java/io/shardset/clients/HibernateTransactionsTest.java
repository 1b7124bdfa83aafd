package io.shardset.clients;

import io.shardset.clients.FrameworkShards.Placement;
import io.shardset.clients.Pools.Target;
import io.shardset.testing.Backend;

import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

import static io.shardset.clients.FrameworkShards.nowhere;
import static io.shardset.clients.FrameworkShards.onOtherShard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Hibernate ORM through JPA over HikariCP over ShardSet, embedded and through the server, on
 * H2 and on PostgreSQL shards, with the entity {@link CustomerOrder} on ORDERS, which is
 * hashed on CUSTOMER_ID, not on its id: persist, flush and a JPQL query in one transaction
 * find the new entities; an update after a persist in the same transaction (Hibernate's
 * UPDATE sets every column, the shard key too); changing the shard key moves the row to its
 * new shard; remove; a pessimistic lock; and optimistic versioning, where a stale update
 * fails with {@link OptimisticLockException} and changes nothing. Each test checks the rows
 * on the shards themselves.
 *
 * <p>Bootstrapped without Spring Boot or persistence.xml, as {@link #factory} does:
 * {@code jakarta.persistence.nonJtaDataSource} is the pool; {@code hibernate.dialect} is a
 * plain subclass of {@code org.hibernate.dialect.Dialect} ({@link GenericDialect}:
 * standard SQL, no database's own syntax);
 * {@code hibernate.boot.allow_jdbc_metadata_access=false}, so that the dialect is not looked
 * up from the driver; {@code hibernate.hbm2ddl.auto=none} (ShardSet runs no DDL). Keys are
 * assigned by the application: the generic dialect declares no identity columns.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HibernateTransactionsTest {
  private FrameworkShards.PerBackend shards;
  private final Map<DataSource, EntityManagerFactory> factories = new HashMap<>();
  private final AtomicLong nextKeys = new AtomicLong(4_000);

  @BeforeAll void create(@TempDir Path folder) {
    shards = new FrameworkShards.PerBackend(folder);
  }

  @AfterAll void close() throws Exception {
    try {
      for (EntityManagerFactory factory : factories.values()) {
        factory.close();
      }
    } finally {
      shards.close();
    }
  }

  /** A row of ORDERS: an assigned id, the shard key CUSTOMER_ID, and a version. */
  @Entity(name = "CustomerOrder")
  @Table(name = "ORDERS")
  static class CustomerOrder {
    @Id
    @Column(name = "ID")
    private Long id;

    @Column(name = "CUSTOMER_ID", nullable = false)
    private long customerId;

    @Column(name = "TOTAL", nullable = false, precision = 12, scale = 2)
    private BigDecimal total;

    @Version
    @Column(name = "VERSION", nullable = false)
    private int version;

    protected CustomerOrder() {
    }

    CustomerOrder(long id, long customerId, String total) {
      this.id = id;
      this.customerId = customerId;
      this.total = new BigDecimal(total);
    }

    long getId() {
      return id;
    }

    void setCustomerId(long customerId) {
      this.customerId = customerId;
    }

    void setTotal(String total) {
      this.total = new BigDecimal(total);
    }

    int getVersion() {
      return version;
    }

    /** {@code ID, CUSTOMER_ID, TOTAL, VERSION}. */
    @Override public String toString() {
      return id + ", " + customerId + ", " + total.toPlainString() + ", " + version;
    }
  }

  /** A block of 100 keys no other test writes. */
  private long keys() {
    return nextKeys.getAndAdd(100);
  }

  /** The entity manager factory over the pool, configured as the class comment says. */
  private EntityManagerFactory factory(DataSource pool) {
    return factories.computeIfAbsent(pool, p -> new HibernatePersistenceConfiguration("shardset")
        .managedClass(CustomerOrder.class)
        .property("jakarta.persistence.nonJtaDataSource", p)
        .property("hibernate.dialect", GenericDialect.class.getName())
        .property("hibernate.boot.allow_jdbc_metadata_access", "false")
        .property("hibernate.hbm2ddl.auto", "none")
        .createEntityManagerFactory());
  }

  private EntityManagerFactory factory(Target target, Backend backend) throws Exception {
    return factory(shards.get(backend).pool(target));
  }

  private static List<Long> idsBetween(EntityManager em, long from, long to) {
    return em.createQuery("select o.id from CustomerOrder o where o.id between :from and :to"
        + " order by o.id", Long.class).setParameter("from", from).setParameter("to", to)
        .getResultList();
  }

  /**
   * Entities persisted for customers on two shards and flushed are found in the same
   * transaction by a JPQL entity query, a count by shard key, a sum, and a find after the
   * persistence context is cleared; the shards show nothing before the commit.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void persistedEntitiesAreFoundByQueriesInTheSameTransaction(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long key = keys();
    final long customer = key;
    final long otherCustomer = onOtherShard(customer, key + 1);
    factory(target, backend).runInTransaction(em -> {
      em.persist(new CustomerOrder(key, customer, "10.00"));
      em.persist(new CustomerOrder(key + 1, otherCustomer, "20.50"));
      em.flush();
      final List<CustomerOrder> found = em.createQuery("select o from CustomerOrder o"
          + " where o.id between :from and :to order by o.id", CustomerOrder.class)
          .setParameter("from", key).setParameter("to", key + 99).getResultList();
      assertEquals(List.of(key + ", " + customer + ", 10.00, 0",
          (key + 1) + ", " + otherCustomer + ", 20.50, 0"),
          found.stream().map(CustomerOrder::toString).toList());
      assertEquals(1L, em.createQuery("select count(o) from CustomerOrder o"
          + " where o.customerId = :c", Long.class).setParameter("c", otherCustomer)
          .getSingleResult());
      assertEquals(0, new BigDecimal("30.50").compareTo(em.createQuery(
          "select sum(o.total) from CustomerOrder o where o.id between :from and :to",
          BigDecimal.class).setParameter("from", key).setParameter("to", key + 99)
          .getSingleResult()));
      em.clear();
      assertEquals((key + 1) + ", " + otherCustomer + ", 20.50, 0",
          em.find(CustomerOrder.class, key + 1).toString());
      assertEquals(nowhere(), fx.orders(key, key + 99));
    });
    assertEquals(new Placement().order(key, customer, "10", 0)
        .order(key + 1, otherCustomer, "20.5", 0).shards(), fx.orders(key, key + 99));
  }

  /**
   * An entity persisted, flushed and then changed twice in the same transaction: each flush
   * is Hibernate's versioned UPDATE of every column, the shard key included, of the row the
   * transaction inserted.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void anEntityIsUpdatedAfterItsPersistInTheSameTransaction(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final long key = keys();
    factory(target, backend).runInTransaction(em -> {
      final CustomerOrder order = new CustomerOrder(key, key, "10.00");
      em.persist(order);
      em.flush();
      order.setTotal("12.50");
      em.flush();
      assertEquals(1, order.getVersion());
      order.setTotal("13.75");
    });
    assertEquals(new Placement().order(key, key, "13.75", 2).shards(), fx.orders(key, key + 99));
  }

  /**
   * Changing an entity's shard key moves its row to the shard of the new key, for a
   * committed entity and for one persisted in the same transaction; a query by the new key
   * finds it before the commit.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void changingTheShardKeyMovesTheRow(Target target, Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final EntityManagerFactory factory = factory(target, backend);
    final long key = keys();
    final long movedTo = onOtherShard(key, key + 10);
    final long fresh = key + 1;
    final long freshMovedTo = onOtherShard(fresh, key + 20);
    factory.runInTransaction(em -> em.persist(new CustomerOrder(key, key, "10.00")));
    assertEquals(new Placement().order(key, key, "10", 0).shards(), fx.orders(key, key + 99));
    factory.runInTransaction(em -> {
      em.find(CustomerOrder.class, key).setCustomerId(movedTo);
      final CustomerOrder order = new CustomerOrder(fresh, fresh, "5.00");
      em.persist(order);
      em.flush();
      order.setCustomerId(freshMovedTo);
      em.flush();
      assertEquals(List.of(key), em.createQuery("select o.id from CustomerOrder o"
          + " where o.customerId = :c", Long.class).setParameter("c", movedTo)
          .getResultList());
      em.clear();
      assertEquals(fresh + ", " + freshMovedTo + ", 5.00, 1",
          em.find(CustomerOrder.class, fresh).toString());
    });
    assertEquals(new Placement().order(key, movedTo, "10", 1)
        .order(fresh, freshMovedTo, "5", 1).shards(), fx.orders(key, key + 99));
  }

  /** {@code remove} deletes a committed entity's row, and one persisted and flushed in the
   * same transaction; a query in the transaction no longer finds either. */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void removedEntitiesAreDeleted(Target target, Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final EntityManagerFactory factory = factory(target, backend);
    final long key = keys();
    final long kept = onOtherShard(key, key + 10);
    factory.runInTransaction(em -> {
      em.persist(new CustomerOrder(key, key, "1.00"));
      em.persist(new CustomerOrder(kept, kept, "2.00"));
    });
    factory.runInTransaction(em -> {
      em.remove(em.find(CustomerOrder.class, key));
      final CustomerOrder order = new CustomerOrder(key + 1, key + 1, "3.00");
      em.persist(order);
      em.flush();
      em.remove(order);
      em.flush();
      assertEquals(List.of(kept), idsBetween(em, key, key + 99));
      em.clear();
      assertNull(em.find(CustomerOrder.class, key));
    });
    assertEquals(new Placement().order(kept, kept, "2", 0).shards(), fx.orders(key, key + 99));
  }

  /** {@code find} with {@code PESSIMISTIC_WRITE} ({@code SELECT ... FOR UPDATE}) in a
   * transaction, then a change of the locked entity. */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aPessimisticallyLockedEntityIsUpdated(Target target, Backend backend) throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final EntityManagerFactory factory = factory(target, backend);
    final long key = keys();
    factory.runInTransaction(em -> em.persist(new CustomerOrder(key, key, "1.00")));
    factory.runInTransaction(em -> em.find(CustomerOrder.class, key,
        LockModeType.PESSIMISTIC_WRITE).setTotal("1.50"));
    assertEquals(new Placement().order(key, key, "1.5", 1).shards(), fx.orders(key, key + 99));
  }

  /**
   * Optimistic versioning: while one transaction holds the entity at version 0, another
   * changes it twice (versions 1 and 2) and commits; the first one's update then fails with
   * {@link OptimisticLockException} and is rolled back, and the row keeps the second
   * transaction's values.
   */
  @ParameterizedTest @MethodSource("io.shardset.clients.FrameworkShards#setups")
  void aStaleUpdateFailsWithOptimisticLockException(Target target, Backend backend)
      throws Exception {
    final FrameworkShards fx = shards.get(backend);
    final EntityManagerFactory factory = factory(target, backend);
    final long key = keys();
    factory.runInTransaction(em -> em.persist(new CustomerOrder(key, key, "1.00")));
    try (EntityManager stale = factory.createEntityManager()) {
      stale.getTransaction().begin();
      final CustomerOrder old = stale.find(CustomerOrder.class, key);
      assertEquals(0, old.getVersion());
      factory.runInTransaction(em -> {
        final CustomerOrder order = em.find(CustomerOrder.class, key);
        order.setTotal("2.00");
        em.flush();
        order.setTotal("3.00");
      });
      old.setTotal("9.99");
      assertThrows(OptimisticLockException.class, stale::flush);
      stale.getTransaction().rollback();
    }
    assertEquals(new Placement().order(key, key, "3", 2).shards(), fx.orders(key, key + 99));
  }
}
