import Foundation
import Synchronization

/// SQL text with its `?` parameters, in order, and what it computes on a row.
struct SQLFragment: Equatable {
  var sql: String
  var parameters: [SQLValue] = []
  /// What the SQL computes on one row, in Swift (see ``RowValue``), for the in-memory backend.
  ///
  /// `nil` when the fragment was built without it. The operators below drop it: whoever
  /// combines fragments says what the combination computes (``computing(_:)``).
  var row: RowValue?

  /// The same SQL and parameters (what a fragment computes on a row is a function, not
  /// compared).
  static func == (lhs: SQLFragment, rhs: SQLFragment) -> Bool {
    lhs.sql == rhs.sql && lhs.parameters == rhs.parameters
  }

  /// The fragment with what it computes on a row.
  ///
  /// - Parameter row: The row value, or `nil` when some part of it has none.
  /// - Returns: The fragment.
  func computing(_ row: RowValue?) -> SQLFragment {
    var fragment = self
    fragment.row = row
    return fragment
  }

  static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
    SQLFragment(sql: lhs.sql + rhs.sql, parameters: lhs.parameters + rhs.parameters)
  }

  static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
    SQLFragment(sql: lhs.sql + rhs, parameters: lhs.parameters)
  }

  static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
    SQLFragment(sql: lhs + rhs.sql, parameters: rhs.parameters)
  }
}

/// How the SQLite backend answers a predicate.
///
/// - `exact`: `whereClause` selects exactly the models the predicate accepts (or all, when `nil`);
///   SQL applies the limit and offset.
/// - superset (`exact == false`): `whereClause` selects at least those models (its translatable
///   part); each selected row is decoded and the whole predicate evaluated in Swift.
/// - `scanAll`: the predicate may throw (a force unwrap, a cast, a subscript) or contains
///   expressions of unknown types; every row is evaluated in Swift, in insertion order, as the
///   in-memory backend does, so it throws on the same rows.
struct TranslatedPredicate {
  var whereClause: SQLFragment?
  var exact: Bool

  static let everything = TranslatedPredicate(whereClause: nil, exact: true)
}

/// Translates `Predicate<Model>` expression trees into SQL over a table's stored columns.
///
/// Translated exactly, with Swift's semantics (`nil` handled with `IS` / `IS NOT`, never SQL's
/// three-valued logic): `==`, `!=` on columns of ``ColumnComparability/equality`` types; `<`,
/// `<=`, `>`, `>=` on ``ColumnComparability/ordering`` types (`String`, `Int`, `Int64`,
/// `Double`, `Date`, `UUID`); `&&`, `||`, `!`; `nil` checks and comparisons of optionals;
/// `??`; `optional.flatMap { … }`; `array.contains(column)` with a constant array (at most 500
/// elements); `Bool` columns; `string.isEmpty`; `\.column.caseFolded` of a searchable column.
///
/// Translated as a superset, then checked in Swift: `String.contains(_:)` and
/// `starts(with:)` (as `instr`, which matches `%` and `_` literally). Swift compares strings by
/// grapheme cluster ("q\u{301}" does not contain "q"), SQLite by bytes, so SQL only narrows.
///
/// Evaluated in Swift: everything else (arithmetic, `count`, regexes, casts, computed
/// properties that are not columns, `URL` comparisons, …).
struct PredicateTranslator {
  enum Translation {
    /// The predicate's input: the model itself.
    case model
    /// A stored column (by position in the table's stored columns).
    case column(Int, nullable: Bool)
    /// A value computed exactly in SQL (also an exact condition when it is a `Bool`).
    case value(SQLFragment, nullable: Bool)
    /// A condition that holds at least where the Swift expression holds (`nil`: everywhere).
    case superset(SQLFragment?)
    /// An optional `Bool` (from `flatMap`) that is `true` at most where this condition holds.
    case optionalSuperset(SQLFragment?)
    /// Not translatable.
    case unknown
  }

  let stored: [StoredColumn]
  let storedIndex: (AnyKeyPath) -> Int?
  let foldedIndex: (Int) -> Int?
  private var bindings: [PredicateExpressions.VariableID: Translation] = [:]

  init<Model: PersistentModel>(table: TableDescription<Model>) {
    self.stored = table.stored
    self.storedIndex = { table.storedIndex(of: $0) }
    self.foldedIndex = { table.foldedIndex(ofColumn: $0) }
  }

  /// Translates `predicate`, or `.everything` when it is `nil`.
  mutating func translate<Model>(_ predicate: Predicate<Model>?) -> TranslatedPredicate? {
    guard let predicate else { return .everything }
    let expression = predicate.expression
    if mayThrowOrIsUnknown(expression) { return nil }
    let variable: PredicateExpressions.Variable<Model> = predicate.variable
    bindings = [variable.key: .model]
    defer { bindings = [:] }
    switch condition(translate(expression)) {
    case .some((let fragment, true)):
      return TranslatedPredicate(whereClause: fragment, exact: true)
    case .some((let fragment, false)):
      return TranslatedPredicate(whereClause: fragment, exact: false)
    case .none:
      return TranslatedPredicate(whereClause: nil, exact: false)
    }
  }

  /// Translates one expression node.
  mutating func translate(_ expression: Any) -> Translation {
    guard let node = expression as? any TranslatableExpression else { return .unknown }
    return node.translate(with: &self)
  }

  /// The binding of a variable (the model, or a `flatMap` argument).
  func binding(_ key: PredicateExpressions.VariableID) -> Translation {
    bindings[key] ?? .unknown
  }

  mutating func bind(_ key: PredicateExpressions.VariableID, to translation: Translation) {
    bindings[key] = translation
  }

  mutating func unbind(_ key: PredicateExpressions.VariableID) {
    bindings[key] = nil
  }

  /// The SQL of a value, or `nil` when it is not an exact value.
  func value(_ translation: Translation) -> (SQLFragment, nullable: Bool)? {
    switch translation {
    case .column(let position, let nullable):
      return (SQLFragment(sql: quoted(stored[position].name), row: .column(position)), nullable)
    case .value(let fragment, let nullable):
      return (fragment, nullable)
    default:
      return nil
    }
  }

  /// A translation used as a condition: its SQL (`nil` for "everywhere") and whether it is exact;
  /// `nil` when it is not a condition at all.
  func condition(_ translation: Translation) -> (SQLFragment?, exact: Bool)? {
    switch translation {
    case .column, .value:
      guard let (fragment, nullable) = value(translation), !nullable else { return (nil, false) }
      return (fragment, true)
    case .superset(let fragment):
      return (fragment, false)
    case .model, .optionalSuperset, .unknown:
      return (nil, false)
    }
  }

  /// Whether comparing values of `type` in SQL answers as Swift does.
  static func supports(_ type: Any.Type, _ needed: ColumnComparability) -> Bool {
    guard let columnType = type as? any ColumnValue.Type else { return false }
    switch (columnType.comparability, needed) {
    case (.ordering, _), (.equality, .equality), (.equality, .none), (.none, .none): return true
    default: return false
    }
  }
}

/// What two fragments compute combined, when both compute something.
private func both(
  _ lhs: SQLFragment, _ rhs: SQLFragment, _ combine: (RowValue, RowValue) -> RowValue
) -> RowValue? {
  guard let left = lhs.row, let right = rhs.row else { return nil }
  return combine(left, right)
}

/// An expression node the translator knows.
protocol TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation
}

/// An expression node whose evaluation can throw in Swift.
private protocol ThrowingExpression {}

/// A Foundation expression node that is not translated but is known not to throw by itself.
private protocol KnownExpression {}

/// Whether evaluating `expression` in Swift can throw, or it holds a node of an unknown type
/// (which might): such predicates are evaluated in Swift on every row.
///
/// NB: the answer depends on the expression's type only: every node keeps its child
/// expressions in properties of its generic parameters' types, so a type is one tree shape.
/// Walking it with `Mirror` costs more than the rest of a translation, so each type is walked
/// once.
private func mayThrowOrIsUnknown(_ expression: Any) -> Bool {
  let shape = ObjectIdentifier(type(of: expression))
  if let known = knownShapes.withLock({ $0[shape] }) { return known }
  let answer = walkMayThrowOrIsUnknown(expression)
  knownShapes.withLock { $0[shape] = answer }
  return answer
}

/// ``mayThrowOrIsUnknown(_:)`` of the expression types seen so far.
private let knownShapes = Mutex<[ObjectIdentifier: Bool]>([:])

private func walkMayThrowOrIsUnknown(_ expression: Any) -> Bool {
  if expression is any ThrowingExpression { return true }
  guard expression is any TranslatableExpression || expression is any KnownExpression else {
    return true
  }
  for child in Mirror(reflecting: expression).children {
    if child.value is any PredicateExpression, walkMayThrowOrIsUnknown(child.value) {
      return true
    }
  }
  return false
}

extension PredicateExpressions.ForcedUnwrap: ThrowingExpression {}
extension PredicateExpressions.ForceCast: ThrowingExpression {}
extension PredicateExpressions.CollectionIndexSubscript: ThrowingExpression {}
extension PredicateExpressions.CollectionRangeSubscript: ThrowingExpression {}
extension PredicateExpressions.DictionaryKeySubscript: ThrowingExpression {}
extension PredicateExpressions.ExpressionEvaluate: ThrowingExpression {}

extension PredicateExpressions.Arithmetic: KnownExpression {}
extension PredicateExpressions.UnaryMinus: KnownExpression {}
extension PredicateExpressions.IntDivision: KnownExpression {}
extension PredicateExpressions.IntRemainder: KnownExpression {}
extension PredicateExpressions.FloatDivision: KnownExpression {}
extension PredicateExpressions.Conditional: KnownExpression {}
extension PredicateExpressions.SequenceMaximum: KnownExpression {}
extension PredicateExpressions.SequenceMinimum: KnownExpression {}
extension PredicateExpressions.SequenceContainsWhere: KnownExpression {}
extension PredicateExpressions.SequenceAllSatisfy: KnownExpression {}
extension PredicateExpressions.Filter: KnownExpression {}
extension PredicateExpressions.TypeCheck: KnownExpression {}
extension PredicateExpressions.ConditionalCast: KnownExpression {}
extension PredicateExpressions.Range: KnownExpression {}
extension PredicateExpressions.ClosedRange: KnownExpression {}
extension PredicateExpressions.RangeExpressionContains: KnownExpression {}
extension PredicateExpressions.StringContainsRegex: KnownExpression {}
extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: KnownExpression {}

// MARK: - Leaves

extension PredicateExpressions.Variable: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    translator.binding(key)
  }
}

extension PredicateExpressions.Value: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    if let flag = value as? Bool {
      return .value(
        SQLFragment(sql: flag ? "1" : "0", row: .constant(.integer(flag ? 1 : 0))),
        nullable: false)
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
      SQLFragment(sql: "?", parameters: [encoded], row: .constant(encoded)), nullable: false)
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
        let name = quoted(translator.stored[position].name)
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

// MARK: - Comparisons

extension PredicateExpressions.Equal: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    let left = translator.translate(lhs)
    let right = translator.translate(rhs)
    if let superset = supersetOfTrue(left, right) { return superset }
    guard PredicateTranslator.supports(LHS.Output.self, .equality),
      let (l, lNullable) = translator.value(left), let (r, rNullable) = translator.value(right)
    else { return .unknown }
    let nullSafe = lNullable || rNullable
    let op = nullSafe ? " IS " : " = "
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
    let op = nullSafe ? " IS NOT " : " <> "
    return .value(
      ("(" + l + op + r + ")").computing(
        both(l, r) { .notEqual($0, $1, nullSafe: nullSafe) }),
      nullable: false)
  }
}

/// `condition == true` where `condition` is only known as a superset: the same superset.
private func supersetOfTrue(
  _ left: PredicateTranslator.Translation, _ right: PredicateTranslator.Translation
) -> PredicateTranslator.Translation? {
  func isTrue(_ translation: PredicateTranslator.Translation) -> Bool {
    guard case .value(let fragment, false) = translation else { return false }
    return fragment.sql == "1"
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

// MARK: - Logic

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

// MARK: - Optionals

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

// MARK: - Sequences and strings

extension PredicateExpressions.SequenceContains: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    translateConstantSequence(with: &translator)
  }

  private func translateConstantSequence(
    with translator: inout PredicateTranslator
  ) -> PredicateTranslator.Translation {
    guard PredicateTranslator.supports(RHS.Output.self, .equality),
      let constant = sequence as? PredicateExpressions.Value<LHS.Output>,
      let (element, nullable) = translator.value(translator.translate(self.element))
    else { return .unknown }
    var values: [SQLValue] = []
    var containsNil = false
    for member in constant.value {
      guard let column = member as? any ColumnValue, let encoded = try? column.encodeColumn(),
        !encoded.isNaN
      else { return .unknown }
      if case .null = encoded {
        containsNil = true
      } else {
        values.append(encoded)
      }
      if values.count > 500 { return .unknown }
    }
    var parts: [SQLFragment] = []
    if !values.isEmpty {
      let list = SQLFragment(
        sql: "(" + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")",
        parameters: values)
      let membership = (element + " IN " + list).computing(
        element.row.map { [values] in .isMember($0, of: values) })
      parts.append(
        nullable
          ? ("COALESCE(" + membership + ", 0)").computing(
            membership.row.map { .coalesce($0, .constant(.integer(0))) })
          : ("(" + membership + ")").computing(membership.row))
    }
    if containsNil {
      parts.append(
        ("(" + element + " IS NULL)").computing(
          element.row.map { .equal($0, .constant(.null), nullSafe: true) }))
    }
    guard var result = parts.first else {
      return .value(SQLFragment(sql: "0", row: .constant(.integer(0))), nullable: false)
    }
    for part in parts.dropFirst() {
      result = ("(" + result + " OR " + part + ")").computing(both(result, part, RowValue.or))
    }
    return .value(result, nullable: false)
  }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard Base.Output.self == String.self, Other.Output.self == String.self,
      case (let haystack, false)? = translator.value(translator.translate(base)),
      case (let needle, false)? = translator.value(translator.translate(other))
    else { return .unknown }
    return .superset(
      ("(instr(" + haystack + ", " + needle + ") > 0)").computing(
        both(haystack, needle) { .comparison(.instr($0, $1), .constant(.integer(0))) { $0 > 0 } }
      ))
  }
}

extension PredicateExpressions.SequenceStartsWith: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard Base.Output.self == String.self, Prefix.Output.self == String.self,
      case (let string, false)? = translator.value(translator.translate(base)),
      case (let prefix, false)? = translator.value(translator.translate(self.prefix))
    else { return .unknown }
    return .superset(
      ("(instr(" + string + ", " + prefix + ") = 1)").computing(
        both(string, prefix) {
          .equal(.instr($0, $1), .constant(.integer(1)), nullSafe: false)
        }))
  }
}
