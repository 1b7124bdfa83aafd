package io.shardset.model;

import org.junit.jupiter.api.Test;

import static io.shardset.model.TestOperands.assertFails;
import static io.shardset.model.TestOperands.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The {@code transactions} object of a model operand. */
class TransactionsModelTest {
  private static final String INVALID = "Invalid ShardSet model: schema 'SALES', field";

  private static String withTransactions(String transactions) {
    return """
        {"shards": [{"name": "s0", "jdbcUrl": "jdbc:h2:mem:s0"},
                    {"name": "s1", "jdbcUrl": "jdbc:h2:mem:s1"}],
         "transactions": """ + transactions + "}";
  }

  @Test void absentMeansDefaults() {
    assertEquals(TransactionsSpec.DEFAULT, parse(TestOperands.twoShards("")).transactions());
    assertEquals(new TransactionsSpec(null, false, 60),
        parse(withTransactions("{}")).transactions());
  }

  @Test void readsEveryKey() {
    final TransactionsSpec spec = parse(withTransactions("""
        {"log": "jdbc:postgresql://${env:PGHOST}/log?user=u&password=${env:PGPASSWORD}",
         "bestEffort": true, "recoveryIntervalSeconds": 5}""")).transactions();
    assertEquals(new TransactionsSpec("jdbc:postgresql://db1/log?user=u&password=s3cret", true,
        5), spec);
    assertEquals(true, spec.logIsJdbcUrl());
    assertEquals("TransactionsSpec[log=jdbc, bestEffort=true, recoveryIntervalSeconds=5,"
        + " deadlockCheckMillis=1000]", spec.toString());
    assertEquals(new TransactionsSpec(null, false, 60, 250),
        parse(withTransactions("{\"deadlockCheckMillis\": 250}")).transactions());
    assertEquals(0, parse(withTransactions("{\"deadlockCheckMillis\": 0}")).transactions()
        .deadlockCheckMillis());
    assertEquals(new TransactionsSpec("txlog", false, 60),
        parse(withTransactions("{\"log\": \"txlog\"}")).transactions());
  }

  @Test void rejectsWhatItDoesNotKnow() {
    assertFails(withTransactions("{\"bestEfort\": true}"), INVALID
        + " 'transactions.bestEfort': unknown key; did you mean 'bestEffort'?");
    assertFails(withTransactions("{\"bestEffort\": \"yes\"}"), INVALID
        + " 'transactions.bestEffort': expected true or false, got a string");
    assertFails(withTransactions("{\"recoveryIntervalSeconds\": 0}"), INVALID
        + " 'transactions.recoveryIntervalSeconds': expected an integer from 1 to 86400, got 0");
    assertFails(withTransactions("{\"log\": \"\"}"), INVALID
        + " 'transactions.log': must not be empty");
    assertFails(withTransactions("true"), INVALID
        + " 'transactions': expected an object, got a boolean");
  }
}
