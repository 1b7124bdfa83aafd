package io.shardset.jdbc.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A Spring Boot application as people write them, with the driver jar beside its own
 * libraries: Boot configures a HikariCP {@link DataSource} from {@code spring.datasource.*}
 * (the driver class and a {@code jdbc:shardset:model=} URL), a {@link JdbcTemplate} and a
 * transaction manager; the application writes rows in one transaction, reads them back and
 * reports, with its own Jackson, what it saw and which Jackson and Guava it ran with.
 * {@code BesideASpringBootApplicationTest} runs it in a class loader of those jars alone.
 */
@SpringBootApplication
public class HostApplication {
  /** Starts the application with the given arguments, works, stops it, and reports as JSON. */
  public String run(String... args) throws Exception {
    final SpringApplication application = new SpringApplication(HostApplication.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    try (ConfigurableApplicationContext context = application.run(args)) {
      final JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
      final TransactionTemplate transaction = context.getBean(TransactionTemplate.class);
      transaction.executeWithoutResult(status -> {
        for (long id = 1; id <= 10; id++) {
          jdbc.update("INSERT INTO T (ID, V) VALUES (?, ?)", id, "v" + id);
        }
      });
      final List<String> values = ImmutableList.copyOf(jdbc.queryForList(
          "SELECT V FROM T WHERE ID IN (2, 7) ORDER BY ID", String.class));
      final Map<String, Object> report = new LinkedHashMap<>();
      report.put("values", values);
      report.put("count", jdbc.queryForObject("SELECT COUNT(*) FROM T", Long.class));
      report.put("pool", context.getBean(DataSource.class).getClass().getName());
      final ObjectMapper mapper = new ObjectMapper();
      report.put("jackson", mapper.version().toString());
      report.put("guava", Path.of(ImmutableList.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI()).getFileName().toString());
      return mapper.writeValueAsString(report);
    }
  }
}
