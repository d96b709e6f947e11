import Foundation

// The leaves of a predicate tree: the model and `flatMap` arguments (`Variable`), constants
// (`Value`, `NilLiteral`), and properties (`KeyPath`): a stored column, or the folded copy or
// emptiness of a text column.

extension PredicateExpressions.Variable: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    translator.binding(key)
  }
}

extension PredicateExpressions.Value: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    if let flag = value as? Bool {
      return .value(translator.literal(flag), nullable: false)
    }
    // NB: NaN (from a custom `ColumnValue`) would be bound as NULL: compared in Swift instead.
    guard let column = value as? any ColumnValue, let encoded = try? column.encodeColumn(),
      !encoded.isNaN
    else {
      return .unknown
    }
    if case .null = encoded {
      return .value(SQLFragment(sql: "NULL", row: .constant(.null)), nullable: true)
    }
    return .value(
      translator.parameter(encoded, kind: ValueKind(of: type(of: column))), nullable: false)
  }
}

extension PredicateExpressions.NilLiteral: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    .value(SQLFragment(sql: "NULL", row: .constant(.null)), nullable: true)
  }
}

extension PredicateExpressions.KeyPath: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    switch translator.translate(root) {
    case .model:
      guard let position = translator.storedIndex(keyPath) else { return .unknown }
      return .column(position, nullable: translator.stored[position].isOptional)
    case .column(let position, nullable: false):
      if keyPath as AnyKeyPath == \String.caseFolded as AnyKeyPath,
        let folded = translator.foldedIndex(position)
      {
        return .column(folded, nullable: false)
      }
      if keyPath as AnyKeyPath == \String.isEmpty as AnyKeyPath,
        translator.stored[position].type == .text
      {
        let name = translator.dialect.columnName(translator.stored[position])
        return .value(
          SQLFragment(
            sql: "(\(name) = '')",
            row: .equal(.column(position), .constant(.text("")), nullSafe: false)),
          nullable: false)
      }
      return .unknown
    default:
      return .unknown
    }
  }
}
