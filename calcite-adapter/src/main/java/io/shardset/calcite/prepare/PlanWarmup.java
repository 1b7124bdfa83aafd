package io.shardset.calcite.prepare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The statements a process's plan cache held, kept in a file so that a process started again
 * (a server after a restart) plans them before its clients ask: one JSON object per line,
 * {@code {"schema":["S"],"sql":"SELECT ..."}}. The texts are the cache's normalized texts, with
 * {@code ?} where literals were parameterized; literals that shape a plan (a LIMIT, a LIKE
 * pattern, a partition value) stay in them, so the file is written readable by its owner only.
 */
public final class PlanWarmup {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PlanWarmup() {
  }

  /**
   * One statement to plan.
   *
   * @param schema the default schema path it was planned with
   * @param sql its normalized text
   */
  public record Statement(List<String> schema, String sql) {
    public Statement {
      schema = List.copyOf(schema);
      Objects.requireNonNull(sql, "sql");
    }
  }

  /**
   * What planning the statements of a file did.
   *
   * @param planned the statements prepared
   * @param failed the statements that no longer prepare (a table dropped, say)
   */
  public record Outcome(int planned, int failed) {
  }

  /** The statements of a file written by {@link #write}. */
  public static List<Statement> read(Path file) throws IOException {
    final List<Statement> statements = new ArrayList<>();
    int number = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      number++;
      if (line.isBlank()) {
        continue;
      }
      try {
        statements.add(JSON.readValue(line, Statement.class));
      } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
        throw new IOException("line " + number + " of " + file + " is no statement of a plan"
            + " warm-up file", e);
      }
    }
    return statements;
  }

  /** Writes the statements to {@code file}, replacing it whole, readable by its owner only. */
  public static void write(Path file, List<Statement> statements) throws IOException {
    final StringBuilder text = new StringBuilder();
    for (Statement statement : statements) {
      text.append(JSON.writeValueAsString(statement)).append('\n');
    }
    final Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    final Path temporary = Files.createTempFile(parent, ".plan-warmup", ".tmp");
    try {
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
      }
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /**
   * Prepares each statement on {@code connection} (a {@code jdbc:shardset:} connection with
   * the settings of the connections to come), which puts its plan in the process's cache;
   * a statement that does not prepare any more is counted and passed over.
   */
  public static Outcome replan(Connection connection, List<Statement> statements)
      throws SQLException {
    final String schema = connection.getSchema();
    int planned = 0;
    int failed = 0;
    try {
      for (Statement statement : statements) {
        try {
          connection.setSchema(statement.schema().isEmpty() ? null
              : statement.schema().get(statement.schema().size() - 1));
          try (PreparedStatement prepared = connection.prepareStatement(statement.sql())) {
            planned++;
          }
        } catch (SQLException | RuntimeException e) {
          failed++;
        }
      }
    } finally {
      connection.setSchema(schema);
    }
    return new Outcome(planned, failed);
  }
}
