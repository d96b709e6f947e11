import Foundation

// Collections: `constants.contains(column)` as `IN`, with `nil` members as a null check.

extension PredicateExpressions.SequenceContains: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard PredicateTranslator.supports(RHS.Output.self, .equality),
      let constant = sequence as? PredicateExpressions.Value<LHS.Output>,
      let (element, nullable) = translator.value(translator.translate(self.element))
    else { return .unknown }
    var members = SQLFragment(sql: "")
    var values: [SQLValue] = []
    var containsNil = false
    for member in constant.value {
      guard let column = member as? any ColumnValue, let encoded = try? column.encodeColumn(),
        !encoded.isNaN
      else { return .unknown }
      if case .null = encoded {
        containsNil = true
      } else {
        let parameter = translator.parameter(encoded, kind: ValueKind(of: type(of: column)))
        members = values.isEmpty ? parameter : members + ", " + parameter
        values.append(encoded)
      }
      if values.count > 500 { return .unknown }
    }
    var parts: [SQLFragment] = []
    if !values.isEmpty {
      let membership = (element + " IN (" + members + ")").computing(
        element.row.map { [values] in .isMember($0, of: values) })
      let no = translator.literal(false)
      parts.append(
        nullable
          ? ("COALESCE(" + membership + ", " + no + ")").computing(
            both(membership, no, RowValue.coalesce))
          : ("(" + membership + ")").computing(membership.row))
    }
    if containsNil {
      parts.append(
        ("(" + element + " IS NULL)").computing(
          element.row.map { .equal($0, .constant(.null), nullSafe: true) }))
    }
    guard var result = parts.first else {
      return .value(translator.literal(false), nullable: false)
    }
    for part in parts.dropFirst() {
      result = ("(" + result + " OR " + part + ")").computing(both(result, part, RowValue.or))
    }
    return .value(result, nullable: false)
  }
}
