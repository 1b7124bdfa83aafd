package io.shardset.testdata.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the relative links of Markdown pages that lead nowhere on GitHub: to a file that does
 * not exist, or to a heading anchor the target page does not have. Links with a scheme
 * (https:, mailto:) are not checked.
 */
final class LinkChecker {
  private final Path root;
  private final Map<Path, MarkdownPage> pages = new HashMap<>();

  /** Links may lead anywhere inside {@code root}, the repository's top folder. */
  LinkChecker(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** One line per broken link, as {@code page:line: target: reason}; empty when all work. */
  List<String> brokenLinks(List<Path> files) {
    final List<String> broken = new ArrayList<>();
    for (Path file : files) {
      final Path page = file.toAbsolutePath().normalize();
      for (MarkdownPage.Link link : page(page).links()) {
        final String reason = check(page, link.target());
        if (reason != null) {
          broken.add(root.relativize(page) + ":" + link.line() + ": " + link.target() + ": "
              + reason);
        }
      }
    }
    return broken;
  }

  private String check(Path page, String target) {
    if (target.isEmpty() || target.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*")) {
      return target.isEmpty() ? "empty link" : null;
    }
    final int hash = target.indexOf('#');
    final String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash),
        StandardCharsets.UTF_8);
    final String anchor = hash < 0 ? null : target.substring(hash + 1);
    final Path resolved = path.isEmpty() ? page
        : path.startsWith("/") ? root.resolve(path.substring(1)).normalize()
        : page.getParent().resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      return "leads outside the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file " + root.relativize(resolved);
    }
    if (anchor == null) {
      return null;
    }
    if (!resolved.toString().endsWith(".md")) {
      return "an anchor into a file that is not Markdown";
    }
    return page(resolved).anchors().contains(anchor) ? null
        : "no heading with anchor #" + anchor + " in " + root.relativize(resolved);
  }

  private MarkdownPage page(Path file) {
    return pages.computeIfAbsent(file, f -> {
      try {
        return MarkdownPage.parse(Files.readString(f));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
