package io.shardset.calcite.plan;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The sort memory property reads as it is written, and refuses what is not a size. */
class SortMemoryTest {
  @Test void sizesReadAsTheyAreWritten() {
    assertEquals(16L << 10, SortMemory.parse("16KB"));
    assertEquals(256L << 20, SortMemory.parse("256"));
    assertEquals(256L << 20, SortMemory.parse(" 256 mb "));
    assertEquals(2L << 30, SortMemory.parse("2GB"));
  }

  @Test void whatIsNoSizeIsRefused() {
    for (String size : new String[] {"", "0", "-1MB", "1TB", "lots", "99999999999999999GB"}) {
      assertEquals("connection property sortMemory must be a positive size such as 256MB,"
          + " 512KB or 1GB, not '" + size + "'", assertThrows(IllegalArgumentException.class,
              () -> SortMemory.parse(size)).getMessage(), size);
    }
  }
}
