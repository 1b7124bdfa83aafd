package io.shardset.calcite.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Tests that {@link SubpartitionTexts} renders once per selection and keeps a bounded number. */
class SubpartitionTextsTest {
  private final List<BitSet> rendered = new ArrayList<>();

  /** Texts whose selection is the bits of parameter ?0. */
  private SubpartitionTexts texts(boolean noneReadsNothing) {
    return new SubpartitionTexts(
        params -> BitSet.valueOf(new long[] {(Long) params.apply(0)}),
        selection -> {
          rendered.add(selection);
          return new ShardTexts(List.of(new ShardQuery.Text("SELECT " + selection, List.of())),
              new int[] {0});
        }, noneReadsNothing);
  }

  private static IntFunction<Object> param(long bits) {
    return i -> bits;
  }

  @Test void rendersEachSelectionOnce() {
    final SubpartitionTexts texts = texts(true);
    final ShardTexts first = texts.texts(param(0b011));
    assertEquals("SELECT {0, 1}", first.of(0).sql());
    assertSame(first, texts.texts(param(0b011)));
    assertEquals("SELECT {2}", texts.texts(param(0b100)).of(0).sql());
    assertEquals(2, rendered.size());
  }

  @Test void noSelectionAsksNoShardUnlessTheWorkAlwaysReturnsARow() {
    assertNull(texts(true).texts(param(0)));
    assertEquals("SELECT {}", texts(false).texts(param(0)).of(0).sql());
  }

  @Test void keepsABoundedNumberOfSelections() {
    final SubpartitionTexts texts = texts(true);
    for (long bits = 1; bits <= SubpartitionTexts.KEPT + 10; bits++) {
      texts.texts(param(bits));
    }
    assertEquals(SubpartitionTexts.KEPT, texts.keptCount());
    texts.texts(param(SubpartitionTexts.KEPT + 10)); // recently used: still kept
    assertEquals(SubpartitionTexts.KEPT + 10, rendered.size());
    texts.texts(param(1)); // dropped long ago: rendered again
    assertEquals(SubpartitionTexts.KEPT + 11, rendered.size());
  }
}
