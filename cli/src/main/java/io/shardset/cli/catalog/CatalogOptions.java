package io.shardset.cli.catalog;

import io.shardset.model.CatalogSpec;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The catalog database a {@code shardset catalog} command works on. */
public final class CatalogOptions {
  @Option(names = "--catalog", required = true, paramLabel = "JDBC_URL",
      description = "The catalog database's JDBC URL (PostgreSQL in production, an H2 file"
          + " for a demo).")
  private String url;

  @Option(names = "--catalog-user", paramLabel = "USER", defaultValue = "",
      description = "The catalog database's user.")
  private String user;

  @Option(names = "--catalog-password-file", paramLabel = "FILE",
      description = "A file whose first line is the catalog user's password (never on the"
          + " command line, which other users of the machine can read).")
  private Path passwordFile;

  /** The catalog these options name. */
  CatalogSpec spec() throws IOException {
    String password = "";
    if (passwordFile != null) {
      final List<String> lines = Files.readAllLines(passwordFile, StandardCharsets.UTF_8);
      password = lines.isEmpty() ? "" : lines.get(0);
    }
    return new CatalogSpec(url, user, password);
  }
}
