package io.shardset.calcite.plan;

import io.shardset.routing.KeyCondition;

import java.util.ArrayList;
import java.util.List;

/** Builds flat, simplified {@link KeyCondition}s. */
final class KeyConditions {
  private KeyConditions() {
  }

  static KeyCondition and(KeyCondition a, KeyCondition b) {
    return and(List.of(a, b));
  }

  /** A conjunction without nested conjunctions or {@code Any} terms (which add nothing). */
  static KeyCondition and(List<KeyCondition> terms) {
    final List<KeyCondition> flat = new ArrayList<>();
    for (KeyCondition term : terms) {
      if (term instanceof KeyCondition.And and) {
        flat.addAll(and.terms());
      } else if (!(term instanceof KeyCondition.Any)) {
        flat.add(term);
      }
    }
    if (flat.isEmpty()) {
      return KeyCondition.any();
    }
    return flat.size() == 1 ? flat.get(0) : new KeyCondition.And(flat);
  }

  /** A disjunction; one {@code Any} term makes it {@code Any}. */
  static KeyCondition or(List<KeyCondition> terms) {
    final List<KeyCondition> flat = new ArrayList<>();
    for (KeyCondition term : terms) {
      if (term instanceof KeyCondition.Any) {
        return term;
      }
      if (term instanceof KeyCondition.Or or) {
        flat.addAll(or.terms());
      } else {
        flat.add(term);
      }
    }
    return flat.size() == 1 ? flat.get(0) : new KeyCondition.Or(flat);
  }
}
