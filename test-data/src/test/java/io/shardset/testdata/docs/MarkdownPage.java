package io.shardset.testdata.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of one Markdown page that links depend on: the anchors GitHub gives its headings,
 * and the links it makes. Text inside fenced code blocks and inline code spans is neither.
 */
final class MarkdownPage {
  /** A link as written, with the line it is on. */
  record Link(int line, String target) { }

  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  /** {@code [text](target)} and {@code ![alt](target)}, target up to a space or ')'. */
  private static final Pattern INLINE_LINK =
      Pattern.compile("\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  /** {@code [label]: target} at the start of a line. */
  private static final Pattern REFERENCE =
      Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(\\s.*)?$");
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
  private static final Pattern LINK_TEXT = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

  private final Set<String> anchors;
  private final List<Link> links;

  private MarkdownPage(Set<String> anchors, List<Link> links) {
    this.anchors = anchors;
    this.links = links;
  }

  static MarkdownPage parse(String text) {
    final Set<String> anchors = new LinkedHashSet<>();
    final Map<String, Integer> seen = new HashMap<>();
    final List<Link> links = new ArrayList<>();
    boolean inFence = false;
    String fence = "";
    final String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      final String line = lines[i];
      final String trimmed = line.stripLeading();
      if (inFence) {
        if (trimmed.startsWith(fence)) {
          inFence = false;
        }
        continue;
      }
      if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
        inFence = true;
        fence = trimmed.substring(0, 3);
        continue;
      }
      final Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        anchors.add(unique(slug(heading.group(2)), seen));
      }
      final String prose = CODE_SPAN.matcher(line).replaceAll("");
      final Matcher reference = REFERENCE.matcher(prose);
      if (reference.matches()) {
        links.add(new Link(i + 1, reference.group(1)));
      }
      final Matcher inline = INLINE_LINK.matcher(prose);
      while (inline.find()) {
        links.add(new Link(i + 1, inline.group(1)));
      }
    }
    return new MarkdownPage(anchors, links);
  }

  /**
   * GitHub's anchor for a heading: link text kept, then lower case, every character that is
   * not a letter, digit, space, '-' or '_' removed, and each space turned into '-'.
   */
  static String slug(String heading) {
    final String text = LINK_TEXT.matcher(heading).replaceAll("$1");
    final StringBuilder slug = new StringBuilder();
    text.toLowerCase(java.util.Locale.ROOT).codePoints().forEach(c -> {
      if (c == ' ') {
        slug.append('-');
      } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c)) {
        slug.appendCodePoint(c);
      }
    });
    return slug.toString();
  }

  /** A repeated heading gets "-1", "-2", ... as GitHub numbers them. */
  private static String unique(String slug, Map<String, Integer> seen) {
    final int count = seen.merge(slug, 1, Integer::sum) - 1;
    return count == 0 ? slug : slug + "-" + count;
  }

  Set<String> anchors() {
    return anchors;
  }

  List<Link> links() {
    return links;
  }
}
