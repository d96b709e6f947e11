import Foundation

// Comparisons: `==` and `!=` (null-safe when either side may be `nil`), and `<`, `<=`, `>`,
// `>=` on types whose stored order is their Swift order.

extension PredicateExpressions.Equal: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    let left = translator.translate(lhs)
    let right = translator.translate(rhs)
    if let superset = supersetOfTrue(left, right, translator) { return superset }
    guard PredicateTranslator.supports(LHS.Output.self, .equality),
      let (l, lNullable) = translator.value(left), let (r, rNullable) = translator.value(right)
    else { return .unknown }
    let nullSafe = lNullable || rNullable
    let op = nullSafe ? translator.dialect.isOperator : " = "
    return .value(
      ("(" + l + op + r + ")").computing(
        both(l, r) { .equal($0, $1, nullSafe: nullSafe) }),
      nullable: false)
  }
}

extension PredicateExpressions.NotEqual: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    let left = translator.translate(lhs)
    let right = translator.translate(rhs)
    guard PredicateTranslator.supports(LHS.Output.self, .equality),
      let (l, lNullable) = translator.value(left), let (r, rNullable) = translator.value(right)
    else { return .unknown }
    let nullSafe = lNullable || rNullable
    let op = nullSafe ? translator.dialect.isNotOperator : " <> "
    return .value(
      ("(" + l + op + r + ")").computing(
        both(l, r) { .notEqual($0, $1, nullSafe: nullSafe) }),
      nullable: false)
  }
}

/// `condition == true` where `condition` is only known as a superset: the same superset.
private func supersetOfTrue(
  _ left: PredicateTranslator.Translation, _ right: PredicateTranslator.Translation,
  _ translator: PredicateTranslator
) -> PredicateTranslator.Translation? {
  func isTrue(_ translation: PredicateTranslator.Translation) -> Bool {
    guard case .value(let fragment, false) = translation else { return false }
    return fragment.sql == translator.dialect.literal(true)
  }
  switch (left, right) {
  case (.superset(let fragment), let other) where isTrue(other),
    (.optionalSuperset(let fragment), let other) where isTrue(other),
    (let other, .superset(let fragment)) where isTrue(other),
    (let other, .optionalSuperset(let fragment)) where isTrue(other):
    return .superset(fragment)
  default:
    return nil
  }
}

extension PredicateExpressions.Comparison: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard PredicateTranslator.supports(LHS.Output.self, .ordering),
      case (let l, false)? = translator.value(translator.translate(lhs)),
      case (let r, false)? = translator.value(translator.translate(rhs))
    else { return .unknown }
    let op: String
    let holds: @Sendable (Int) -> Bool
    switch self.op {
    case .lessThan: (op, holds) = (" < ", { $0 < 0 })
    case .lessThanOrEqual: (op, holds) = (" <= ", { $0 <= 0 })
    case .greaterThan: (op, holds) = (" > ", { $0 > 0 })
    case .greaterThanOrEqual: (op, holds) = (" >= ", { $0 >= 0 })
    }
    return .value(
      ("(" + l + op + r + ")").computing(both(l, r) { .comparison($0, $1, holds) }),
      nullable: false)
  }
}
