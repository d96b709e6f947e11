import Foundation

// Optionals: `??` as `COALESCE`, and `optional.flatMap { … }` as a `CASE` that keeps `nil`
// (its closure's argument bound to the unwrapped value).

extension PredicateExpressions.NilCoalesce: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard PredicateTranslator.supports(RHS.Output.self, .none),
      let (l, _) = translator.value(translator.translate(lhs)),
      let (r, rNullable) = translator.value(translator.translate(rhs))
    else { return .unknown }
    return .value(
      ("COALESCE(" + l + ", " + r + ")").computing(both(l, r, RowValue.coalesce)),
      nullable: rNullable)
  }
}

extension PredicateExpressions.OptionalFlatMap: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    let outer = translator.translate(wrapped)
    let unwrapped: PredicateTranslator.Translation
    switch outer {
    case .column(let position, _): unwrapped = .column(position, nullable: false)
    case .value(let fragment, _): unwrapped = .value(fragment, nullable: false)
    default: return .unknown
    }
    guard let (guardSQL, _) = translator.value(outer) else { return .unknown }
    let isSome = (guardSQL + " IS NOT NULL").computing(
      guardSQL.row.map { .notEqual($0, .constant(.null), nullSafe: true) })
    translator.bind(variable.key, to: unwrapped)
    let inner = translator.translate(transform)
    translator.unbind(variable.key)
    switch inner {
    case .superset(let condition):
      guard let condition else {
        return .optionalSuperset(("(" + isSome + ")").computing(isSome.row))
      }
      return .optionalSuperset(
        ("(" + isSome + " AND " + condition + ")").computing(
          both(isSome, condition, RowValue.and)))
    case .column, .value:
      guard let (result, _) = translator.value(inner) else { return .unknown }
      return .value(
        ("(CASE WHEN " + guardSQL + " IS NULL THEN NULL ELSE " + result + " END)").computing(
          both(guardSQL, result) { .nullIfNull($0, else: $1) }),
        nullable: true)
    default:
      return .unknown
    }
  }
}
