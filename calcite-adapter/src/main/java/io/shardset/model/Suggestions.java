package io.shardset.model;

import java.util.List;
import java.util.Locale;

/** Finds the known word a misspelled one was probably meant to be. */
final class Suggestions {
  private static final int MAX_DISTANCE = 2;

  private Suggestions() {
  }

  /**
   * The candidate closest to {@code word}, ignoring case, if it is at most two edits away (and
   * fewer edits than the shorter word's length, so that short words do not match everything);
   * else null. Ties go to the earlier candidate.
   */
  static String closest(String word, List<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = distance(word.toLowerCase(Locale.ROOT),
          candidate.toLowerCase(Locale.ROOT));
      if (distance <= MAX_DISTANCE
          && distance < Math.min(word.length(), candidate.length())
          && distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Edit distance counting insertions, deletions, substitutions and adjacent swaps. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
