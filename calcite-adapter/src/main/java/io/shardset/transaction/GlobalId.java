package io.shardset.transaction;

import org.checkerframework.checker.nullness.qual.Nullable;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The id of a transaction across shards, {@code ss_<log>_<instance>_<n>}, and of its branch
 * on one shard, {@code <id>_<branch>}: ShardSet's mark, the decision log's id, the id of the
 * coordinator instance that began it, its number in that instance (base 36), and the shard's
 * position among the transaction's shards.
 *
 * <p>A branch id has lower-case letters, digits and underscores only, and at most 3 + 17 + 13
 * + 13 + 6 = 52 characters: within MariaDB's 64 bytes of an XA gtrid, PostgreSQL's 200 of a
 * gid and H2's identifiers, quoted or not. Each branch has an id of its own because one
 * PostgreSQL cluster or MariaDB server may hold several shards, and an id is unique per
 * server.
 *
 * @param log the decision log's id ({@link #UNLOGGED} for a coordinator with no log)
 * @param instance the coordinator instance's id
 * @param number the transaction's number in the instance
 */
record GlobalId(String log, String instance, long number) {
  /** What every id of ShardSet's starts with. */
  static final String MARK = "ss_";
  /** The log id of transactions begun while no decision log was open; never prepared. */
  static final String UNLOGGED = "x";
  private static final Pattern PART = Pattern.compile("[a-z0-9]{1,16}");
  private static final Pattern BRANCH =
      Pattern.compile("ss_([a-z0-9]{1,16})_([a-z0-9]{1,16})_([a-z0-9]{1,13})_([0-9]{1,6})"
          // MariaDB's XID: the id of the session that ran the branch (see CommitProtocol).
          + "(?:\\.[0-9]{1,20})?");

  GlobalId {
    if (!PART.matcher(log).matches() || !PART.matcher(instance).matches() || number < 0) {
      throw new IllegalArgumentException("not an id: " + log + ", " + instance + ", " + number);
    }
  }

  /** What the ids of every transaction recorded in this log start with. */
  static String prefix(String log) {
    return MARK + log + "_";
  }

  /** The transaction's id, as the decision log records it. */
  String text() {
    return MARK + log + "_" + instance + "_" + Long.toString(number, Character.MAX_RADIX);
  }

  /** The id of the transaction's branch on its {@code index}th shard. */
  String branch(int index) {
    return text() + "_" + index;
  }

  /** Whether the transaction was begun with a decision log that can record it. */
  boolean isLogged() {
    return !UNLOGGED.equals(log);
  }

  /**
   * A branch id as a shard lists it (on MariaDB with the session's id after a dot), read
   * back; null if ShardSet did not make it.
   */
  static @Nullable Branch parseBranch(String text) {
    final Matcher matcher = text == null ? null : BRANCH.matcher(text);
    if (matcher == null || !matcher.matches()) {
      return null;
    }
    return new Branch(new GlobalId(matcher.group(1), matcher.group(2),
        Long.parseLong(matcher.group(3), Character.MAX_RADIX)), text);
  }

  @Override public String toString() {
    return text();
  }

  /** A prepared branch a shard listed: its transaction and its own id. */
  record Branch(GlobalId transaction, String id) {
  }
}
