package io.shardset.testdata.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every relative link of README.md and docs/*.md leads to a file that exists and, when it
 * names one, to a heading anchor that page has, as GitHub renders them.
 */
class DocumentationLinksTest {
  @Test void everyLinkOfTheReadmeAndTheDocsWorks() throws IOException {
    final Path root = repositoryRoot();
    final List<Path> pages = new ArrayList<>();
    pages.add(root.resolve("README.md"));
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    assertTrue(pages.size() > 1, "no pages in docs/");
    final List<String> broken = new LinkChecker(root).brokenLinks(pages);
    assertEquals(List.of(), broken, "broken links:\n" + String.join("\n", broken));
  }

  @Test void reportsAMissingFileAndAMissingAnchor(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("docs"));
    Files.writeString(dir.resolve("docs/a.md"), "# Page A\n\n## The `chunkMap` key, again\n");
    Files.writeString(dir.resolve("README.md"), String.join("\n",
        "# Top",
        "[fine](docs/a.md) [fine anchor](docs/a.md#the-chunkmap-key-again) [self](#top)",
        "[no file](docs/b.md) and [no anchor](docs/a.md#the-chunkmap-key) [web](https://x.org/y)",
        "```",
        "[in code](docs/none.md)",
        "```",
        "`[span](docs/none.md)` ![image](docs/missing.png)",
        "[ref]: docs/a.md#page-b",
        ""));
    final List<String> broken = new LinkChecker(dir).brokenLinks(List.of(dir.resolve("README.md")));
    assertEquals(List.of(
        "README.md:3: docs/b.md: no such file docs/b.md",
        "README.md:3: docs/a.md#the-chunkmap-key: no heading with anchor #the-chunkmap-key in docs/a.md",
        "README.md:7: docs/missing.png: no such file docs/missing.png",
        "README.md:8: docs/a.md#page-b: no heading with anchor #page-b in docs/a.md"), broken);
  }

  @Test void anchorsFollowGitHubsSlugRules() {
    final MarkdownPage page = MarkdownPage.parse(String.join("\n",
        "# ShardSet", "## What runs inside the shards", "### The routing function (consistent hash)",
        "## `LIMIT ?` and `OFFSET ?` of any integral type", "## Tests", "## Tests",
        "## Serving over [Avatica](https://calcite.apache.org/avatica/)", "## snake_case & co."));
    assertEquals(List.of("shardset", "what-runs-inside-the-shards",
        "the-routing-function-consistent-hash", "limit--and-offset--of-any-integral-type",
        "tests", "tests-1", "serving-over-avatica", "snake_case--co"),
        List.copyOf(page.anchors()));
  }

  /** Surefire runs in the module's folder; the documentation is at the repository's top. */
  private static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !(Files.isRegularFile(dir.resolve("README.md"))
        && Files.isDirectory(dir.resolve("docs")))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no README.md with a docs/ folder above "
          + Path.of("").toAbsolutePath());
    }
    return dir;
  }
}
