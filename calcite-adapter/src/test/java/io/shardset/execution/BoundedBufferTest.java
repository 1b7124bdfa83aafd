package io.shardset.execution;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link BoundedBuffer}: order, bound, finish and close. */
class BoundedBufferTest {
  @Test void deliversInOrderThenNullAfterFinish() throws InterruptedException {
    BoundedBuffer<String> buffer = new BoundedBuffer<>(3);
    assertTrue(buffer.put("a"));
    assertTrue(buffer.put("b"));
    buffer.finish();
    assertEquals("a", buffer.take());
    assertEquals("b", buffer.take());
    assertNull(buffer.take());
    assertEquals(2, buffer.peakSize());
  }

  @Test void neverHoldsMoreThanItsCapacity() throws Exception {
    int capacity = 3;
    int producers = 4;
    int itemsEach = 2_000;
    BoundedBuffer<Integer> buffer = new BoundedBuffer<>(capacity);
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int first = p * itemsEach;
      running.add(CompletableFuture.runAsync(() -> {
        for (int i = first; i < first + itemsEach; i++) {
          buffer.put(i);
        }
      }));
    }
    CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0]))
        .thenRun(buffer::finish);
    Set<Integer> received = new HashSet<>();
    int maxSeen = 0;
    for (Integer item; (item = buffer.take()) != null;) {
      received.add(item);
      maxSeen = Math.max(maxSeen, buffer.size());
    }
    assertEquals(producers * itemsEach, received.size());
    assertTrue(maxSeen <= capacity, "size seen " + maxSeen);
    assertTrue(buffer.peakSize() <= capacity, "peak " + buffer.peakSize());
    assertTrue(buffer.peakSize() >= 1, "peak " + buffer.peakSize());
  }

  @Test void aStopConditionEndsAWaitThatNothingSignals() throws Exception {
    // A cancel flag is a plain AtomicBoolean: nobody signals the buffer when it is set.
    final BoundedBuffer<String> buffer = new BoundedBuffer<>(2);
    final AtomicBoolean cancel = new AtomicBoolean();
    final CompletableFuture<String> taken = CompletableFuture.supplyAsync(() -> {
      try {
        return buffer.take(cancel::get);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    cancel.set(true);
    assertNull(taken.get());
    // The buffer itself is untouched: a later item is still delivered.
    buffer.put("row");
    assertEquals("row", buffer.take(() -> false));
  }

  @Test void closeWakesABlockedProducer() throws Exception {
    BoundedBuffer<String> buffer = new BoundedBuffer<>(1);
    assertTrue(buffer.put("a"));
    // The second put waits for room: it has not returned after a while, and close() ends it.
    CompletableFuture<Boolean> blocked = CompletableFuture.supplyAsync(() -> buffer.put("b"));
    assertThrows(TimeoutException.class, () -> blocked.get(50, TimeUnit.MILLISECONDS));
    buffer.close();
    assertFalse(blocked.get(10, TimeUnit.SECONDS));
    assertFalse(buffer.put("c"));
    assertEquals(0, buffer.size());
    assertEquals(1, buffer.peakSize());
  }

  @Test void closeWakesTheWaitingConsumer() throws Exception {
    BoundedBuffer<String> buffer = new BoundedBuffer<>(2);
    CompletableFuture<String> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return buffer.take();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    buffer.close();
    assertNull(waiting.get(10, TimeUnit.SECONDS));
  }

  @Test void closeDiscardsBufferedItems() throws InterruptedException {
    BoundedBuffer<String> buffer = new BoundedBuffer<>(2);
    buffer.put("a");
    buffer.close();
    assertNull(buffer.take());
  }

  @Test void rejectsPutAfterFinish() {
    BoundedBuffer<String> buffer = new BoundedBuffer<>(2);
    buffer.finish();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> buffer.put("a"));
    assertEquals("put after finish", e.getMessage());
  }

  @Test void rejectsCapacityBelowOne() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new BoundedBuffer<String>(0));
    assertEquals("capacity must be at least 1, got 0", e.getMessage());
  }
}
