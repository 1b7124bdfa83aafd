package io.shardset.transaction;

import io.shardset.model.TransactionsSpec;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Where a schema's decision log lives, as its model says. */
class TransactionSettingsTest {
  private static final Path MODEL = Path.of("/models/sales.json");

  @Test void byDefaultNextToTheModelFile() {
    final TransactionSettings settings =
        TransactionSettings.of("SALES", TransactionsSpec.DEFAULT, MODEL);
    assertEquals(LogDatabase.h2File(Path.of("/models/sales.SALES.transactions")),
        settings.log());
    assertEquals("jdbc:h2:file:/models/sales.SALES.transactions;AUTO_SERVER=TRUE",
        settings.log().url());
    assertEquals(Duration.ofSeconds(60), settings.recoveryInterval());
  }

  @Test void inADirectoryRelativeToTheModelFile() {
    final TransactionSettings settings = TransactionSettings.of("my schema",
        new TransactionsSpec("logs", true, 5), MODEL);
    assertEquals(LogDatabase.h2File(Path.of("/models/logs/my_schema.transactions")),
        settings.log());
    assertEquals(true, settings.bestEffort());
    assertEquals(Duration.ofSeconds(5), settings.recoveryInterval());
  }

  @Test void atAJdbcUrlWithoutShowingItsPassword() {
    final TransactionSettings settings = TransactionSettings.of("SALES",
        new TransactionsSpec("jdbc:postgresql://db/log?user=u&password=s3cret", false, 60),
        null);
    assertEquals("jdbc:postgresql://db/log?user=u&password=s3cret", settings.log().url());
    assertEquals("jdbc:postgresql://db/log?user=u&password=****", settings.log().toString());
  }

  @Test void noneWithoutAModelFile() {
    final TransactionSettings settings =
        TransactionSettings.of("SALES", TransactionsSpec.DEFAULT, null);
    assertNull(settings.log());
    assertEquals("schema 'SALES' was not read from a model file, so it has no default decision"
        + " log; set \"transactions\": {\"log\": \"<directory or JDBC URL>\"} in its operand",
        settings.noLog());
  }
}
