import Foundation

// Logic: `&&`, `||` and `!`, exact when their sides are, and otherwise the superset that still
// holds (a side that is not translated is decided in Swift).

extension PredicateExpressions.Conjunction: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard let (l, lExact) = translator.condition(translator.translate(lhs)),
      let (r, rExact) = translator.condition(translator.translate(rhs))
    else { return .unknown }
    if lExact, rExact, let l, let r {
      return .value(
        ("(" + l + " AND " + r + ")").computing(both(l, r, RowValue.and)), nullable: false)
    }
    switch (l, r) {
    case (let l?, let r?):
      return .superset(("(" + l + " AND " + r + ")").computing(both(l, r, RowValue.and)))
    case (let only?, nil), (nil, let only?): return .superset(only)
    case (nil, nil): return .superset(nil)
    }
  }
}

extension PredicateExpressions.Disjunction: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard let (l, lExact) = translator.condition(translator.translate(lhs)),
      let (r, rExact) = translator.condition(translator.translate(rhs)),
      let l, let r
    else { return .superset(nil) }
    let combined = ("(" + l + " OR " + r + ")").computing(both(l, r, RowValue.or))
    return lExact && rExact ? .value(combined, nullable: false) : .superset(combined)
  }
}

extension PredicateExpressions.Negation: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    // NB: the negation of a superset is a subset, so only an exact condition can be negated in
    // SQL; anything else selects every row and is decided in Swift.
    guard case (let inner?, true)? = translator.condition(translator.translate(wrapped))
    else { return .superset(nil) }
    return .value(("(NOT " + inner + ")").computing(inner.row.map(RowValue.not)), nullable: false)
  }
}
