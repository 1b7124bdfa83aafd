package io.shardset.testdata;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.BiFunction;

/**
 * The demo data set: customers, their orders, shipments, support tickets, payments,
 * subscriptions, the documents of tenants (with their directory) and a reference list of
 * countries, generated deterministically (the same rows on every machine and every run).
 *
 * <p>Rows are arrays of JDBC values in the column order of {@code demo-schema.sql}. Each table
 * draws from its own seeded generator, so one table's size does not change another's rows.
 */
public final class DemoData {
  /** Country code, name, region. */
  private static final String[][] COUNTRIES = {
      {"DE", "Germany", "EU"}, {"FR", "France", "EU"}, {"IT", "Italy", "EU"},
      {"ES", "Spain", "EU"}, {"NL", "Netherlands", "EU"}, {"SE", "Sweden", "EU"},
      {"PL", "Poland", "EU"}, {"GB", "United Kingdom", "UK"}, {"US", "United States", "US"},
      {"CA", "Canada", "CA"}, {"JP", "Japan", "APAC"}, {"AU", "Australia", "APAC"},
      {"IN", "India", "APAC"}, {"SG", "Singapore", "APAC"}, {"KR", "South Korea", "APAC"},
      {"BR", "Brazil", "LATAM"}, {"MX", "Mexico", "LATAM"}, {"AR", "Argentina", "LATAM"},
      {"ZA", "South Africa", "MEA"}, {"AE", "United Arab Emirates", "MEA"},
      {"EG", "Egypt", "MEA"}, {"NG", "Nigeria", "MEA"}};
  /** Weights of countries when drawing a customer's country: big markets first. */
  private static final int[] COUNTRY_WEIGHTS =
      {9, 7, 5, 5, 3, 2, 3, 8, 20, 4, 5, 3, 6, 2, 2, 4, 3, 1, 1, 1, 1, 1};
  private static final String[] FIRST = {"Ada", "Alan", "Grace", "Edsger", "Barbara",
      "Donald", "Frances", "John", "Margaret", "Niklaus", "Radia", "Ken", "Sophie", "Tim",
      "Hedy", "Linus", "Anita", "Dennis", "Karen", "Bjarne"};
  private static final String[] LAST = {"Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov",
      "Knuth", "Allen", "Backus", "Hamilton", "Wirth", "Perlman", "Thompson", "Wilson",
      "Berners-Lee", "Lamarr", "Torvalds", "Borg", "Ritchie", "Jones", "Stroustrup"};
  private static final String[] SEGMENTS = {"CONSUMER", "SMB", "ENTERPRISE"};
  private static final String[] STATUSES = {"NEW", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"};
  private static final String[] CARRIERS = {"DHL", "UPS", "FedEx", "PostNL", "Royal Mail"};
  private static final String[] PRIORITIES = {"LOW", "NORMAL", "HIGH", "URGENT"};
  private static final String[] CHANNELS = {"CARD", "TRANSFER", "WALLET", "INVOICE"};
  private static final String[] SUBJECTS = {"Late delivery", "Wrong item", "Refund request",
      "Invoice copy", "Damaged parcel", "Change address", "Account locked", "Price question"};
  private static final String[] PLANS = {"BASIC", "PRO", "ENTERPRISE", "TRIAL"};
  private static final String[] DOC_KINDS = {"Invoice", "Contract", "Report", "Memo", "Offer"};
  /** The tenants of TENANT_DOCS, and how many documents each holds at most. */
  private static final int TENANTS = 200;
  private static final int DOCS_PER_TENANT = 60;

  private final int customers;
  private final int orders;
  private final int shipments;
  private final int tickets;
  /** Index into COUNTRIES of each customer, so that tickets carry their customer's region. */
  private final int[] customerCountry;

  /** Creates a data set of the given sizes. */
  public DemoData(int customers, int orders, int shipments, int tickets) {
    this.customers = customers;
    this.orders = orders;
    this.shipments = shipments;
    this.tickets = tickets;
    this.customerCountry = new int[customers + 1];
    final SplittableRandom random = new SplittableRandom(1L);
    for (int id = 1; id <= customers; id++) {
      customerCountry[id] = weighted(random, COUNTRY_WEIGHTS);
    }
  }

  /** The demo's standard size: 20,000 customers and 200,000 orders. */
  public static DemoData standard() {
    return new DemoData(20_000, 200_000, 60_000, 30_000);
  }

  /** The rows of one demo table, by its name. */
  public List<Object[]> rows(String table) {
    switch (table) {
    case "COUNTRIES":
      return countries();
    case "CUSTOMERS":
      return generate(customers, 2L, this::customer);
    case "ORDERS":
      return generate(orders, 3L, this::order);
    case "SHIPMENTS":
      return generate(shipments, 4L, this::shipment);
    case "TICKETS":
      return generate(tickets, 5L, this::ticket);
    case "PAYMENTS":
      return payments();
    case "SUBSCRIPTIONS":
      return generate(customers / 2, 6L, this::subscription);
    case "TENANT_DOCS":
      return generate(TENANTS * DOCS_PER_TENANT / 2, 7L, this::tenantDoc);
    default:
      throw new IllegalArgumentException("no demo table " + table);
    }
  }

  /** The demo tables, in the order they are loaded. */
  public static List<String> tables() {
    return List.of("COUNTRIES", "CUSTOMERS", "ORDERS", "SHIPMENTS", "TICKETS", "PAYMENTS",
        "SUBSCRIPTIONS", "TENANT_DOCS");
  }

  /**
   * The directory of TENANT_DOCS: each tenant's id and the shard holding its documents, the
   * tenants dealt round the given shards, except that tenant 1, the largest, has the last
   * shard to itself.
   */
  public static List<Object[]> tenantDirectory(List<String> shards) {
    final List<Object[]> entries = new ArrayList<>();
    final int shared = Math.max(1, shards.size() - 1);
    for (int tenant = 1; tenant <= TENANTS; tenant++) {
      final String shard = tenant == 1 ? shards.get(shards.size() - 1)
          : shards.get(tenant % shared);
      entries.add(new Object[] {(long) tenant, shard});
    }
    return entries;
  }

  private static List<Object[]> countries() {
    final List<Object[]> rows = new ArrayList<>();
    for (String[] c : COUNTRIES) {
      rows.add(new Object[] {c[0], c[1], c[2]});
    }
    return rows;
  }

  private static List<Object[]> generate(int count, long seed,
      BiFunction<Integer, SplittableRandom, Object[]> maker) {
    final SplittableRandom random = new SplittableRandom(seed);
    final List<Object[]> rows = new ArrayList<>(count);
    for (int i = 1; i <= count; i++) {
      rows.add(maker.apply(i, random));
    }
    return rows;
  }

  private Object[] customer(int id, SplittableRandom r) {
    final String first = FIRST[r.nextInt(FIRST.length)];
    final String last = LAST[r.nextInt(LAST.length)];
    final String email = r.nextInt(20) == 0 ? null
        : (first + "." + last + id + "@example.com").toLowerCase(Locale.ROOT);
    final BigDecimal credit = r.nextInt(10) == 0 ? null
        : BigDecimal.valueOf(50_000 + r.nextInt(4_950_000), 2);
    return new Object[] {(long) id, first + " " + last, email,
        COUNTRIES[customerCountry[id]][0], SEGMENTS[weighted(r, new int[] {6, 3, 1})],
        LocalDate.of(2019, 1, 1).plusDays(r.nextInt(2_190)), credit};
  }

  private Object[] order(int id, SplittableRandom r) {
    final int items = 1 + r.nextInt(12);
    final BigDecimal total = BigDecimal.valueOf((long) items * (199 + r.nextInt(19_800)), 2);
    return new Object[] {(long) id, (long) (1 + r.nextInt(customers)),
        LocalDate.of(2020, 1, 1).plusDays(r.nextInt(2_190)),
        STATUSES[weighted(r, new int[] {1, 2, 2, 6, 1})], items, total};
  }

  private Object[] shipment(int id, SplittableRandom r) {
    return new Object[] {(long) id, (long) (1 + r.nextInt(orders)),
        LocalDate.of(2021, 6, 1).plusDays(r.nextInt(1_674)),
        CARRIERS[r.nextInt(CARRIERS.length)],
        BigDecimal.valueOf(10 + r.nextInt(250_000), 2)};
  }

  private Object[] ticket(int id, SplittableRandom r) {
    final int customer = 1 + r.nextInt(customers);
    final LocalDateTime opened = LocalDateTime.of(2022, 1, 1, 0, 0)
        .plusSeconds(r.nextLong(4L * 365 * 24 * 3600));
    return new Object[] {(long) id, COUNTRIES[customerCountry[customer]][2], (long) customer,
        opened, PRIORITIES[weighted(r, new int[] {3, 6, 2, 1})],
        SUBJECTS[r.nextInt(SUBJECTS.length)], r.nextInt(4) != 0};
  }

  /**
   * One payment for each order that is neither new nor cancelled, by the order's customer, a
   * few days after the order: about five in six orders.
   */
  private List<Object[]> payments() {
    final SplittableRandom r = new SplittableRandom(6L);
    final List<Object[]> rows = new ArrayList<>();
    for (Object[] order : rows("ORDERS")) {
      final String status = (String) order[3];
      final int days = r.nextInt(8);
      final String channel = CHANNELS[weighted(r, new int[] {6, 2, 3, 1})];
      if (status.equals("NEW") || status.equals("CANCELLED")) {
        continue;
      }
      rows.add(new Object[] {(long) rows.size() + 1, order[0], order[1],
          ((LocalDate) order[2]).plusDays(days), channel, order[5]});
    }
    return rows;
  }

  private Object[] subscription(int id, SplittableRandom r) {
    final String plan = PLANS[weighted(r, new int[] {8, 4, 1, 2})];
    final BigDecimal fee = switch (plan) {
    case "ENTERPRISE" -> BigDecimal.valueOf(50_000 + r.nextInt(200_000), 2);
    case "PRO" -> BigDecimal.valueOf(4_900 + r.nextInt(5_000), 2);
    case "BASIC" -> BigDecimal.valueOf(900 + r.nextInt(1_000), 2);
    default -> BigDecimal.ZERO.setScale(2);
    };
    return new Object[] {(long) id, (long) (1 + r.nextInt(customers)), plan,
        LocalDate.of(2020, 1, 1).plusDays(r.nextInt(2_000)), fee};
  }

  private Object[] tenantDoc(int id, SplittableRandom r) {
    // Tenant 1 is the largest: a tenth of all documents.
    final long tenant = r.nextInt(10) == 0 ? 1 : 2 + r.nextInt(TENANTS - 1);
    return new Object[] {(long) id, tenant,
        DOC_KINDS[r.nextInt(DOC_KINDS.length)] + " " + id,
        LocalDateTime.of(2023, 1, 1, 0, 0).plusSeconds(r.nextLong(2L * 365 * 24 * 3600))};
  }

  /** An index drawn with the given weights. */
  private static int weighted(SplittableRandom r, int[] weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int pick = r.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      pick -= weights[i];
      if (pick < 0) {
        return i;
      }
    }
    throw new AssertionError();
  }
}
