import Foundation

/// How a SQL backend answers a predicate.
///
/// - `exact`: `whereClause` selects exactly the models the predicate accepts (or all, when `nil`);
///   SQL applies the limit and offset.
/// - superset (`exact == false`): `whereClause` selects at least those models (its translatable
///   part); each selected row is decoded and the whole predicate evaluated in Swift.
/// - `nil` (from ``PredicateTranslator/translate(_:)``): the predicate may throw (a force
///   unwrap, a cast, a subscript) or contains expressions of unknown types; every row is
///   evaluated in Swift, in insertion order, as the in-memory backend does, so it throws on the
///   same rows.
struct TranslatedPredicate {
  var whereClause: SQLFragment?
  var exact: Bool

  static let everything = TranslatedPredicate(whereClause: nil, exact: true)
}

/// Translates `Predicate<Model>` expression trees into SQL over a table's stored columns, in
/// SQLite's or PostgreSQL's dialect (``SQLDialect``).
///
/// ## The trees it reads
///
/// `#Predicate { $0.count > 1 && $0.note == nil }` expands to a `Predicate<Model>` whose
/// `variable` stands for the model and whose `expression` is a tree of `PredicateExpressions`
/// nodes, each holding its children in properties typed by its generic parameters:
///
/// ```
/// Conjunction(
///   lhs: Comparison(lhs: KeyPath(root: Variable(model), keyPath: \.count),
///                   rhs: Value(1), op: .greaterThan),
///   rhs: Equal(lhs: KeyPath(root: Variable(model), keyPath: \.note), rhs: NilLiteral()))
/// ```
///
/// The leaves are `Variable` (the model, or the argument of a `flatMap` closure), `Value` (a
/// constant the closure captured or wrote, `Codable`), `NilLiteral`, and `KeyPath` (a property
/// of what its root evaluates to: a stored column when the root is the model, or
/// `\String.caseFolded` and `\String.isEmpty` of a text column). The nodes translated are, by
/// file: comparisons (`Equal`, `NotEqual`, `Comparison`), logic (`Conjunction`, `Disjunction`,
/// `Negation`), optionals (`NilCoalesce`, `OptionalFlatMap`), collections (`SequenceContains`
/// of a constant array) and strings (`CollectionContainsCollection`, `SequenceStartsWith`).
/// Each node's extension turns its children's ``Translation``s into its own.
///
/// ## What runs in SQL, and the fallback to Swift
///
/// Translated exactly, with Swift's semantics (`nil` handled with null-safe equality, never
/// SQL's three-valued logic): `==`, `!=` on columns of ``ColumnComparability/equality`` types;
/// `<`, `<=`, `>`, `>=` on ``ColumnComparability/ordering`` types (`String`, `Int`, `Int64`,
/// `Double`, `Date`, `UUID`); `&&`, `||`, `!`; `nil` checks and comparisons of optionals; `??`;
/// `optional.flatMap { … }`; `array.contains(column)` with a constant array (at most 500
/// elements); `Bool` columns; `string.isEmpty`; `\.column.caseFolded` of a searchable column.
///
/// Translated as a superset, then checked in Swift: `String.contains(_:)` and
/// `starts(with:)` (as a search for the text, which matches `%` and `_` literally). Swift
/// compares strings by grapheme cluster ("q\u{301}" does not contain "q"), SQL by bytes, so SQL
/// only narrows.
///
/// The rule for the rest: a node the translator does not know is ``Translation/unknown``. Under
/// `&&` an unknown side leaves the other side as a superset (SQL narrows, Swift decides); under
/// `||` or `!` it makes the whole a superset of nothing (every row, decided in Swift). A
/// predicate holding a node that can throw in Swift (`!`, `as!`, subscripts) or of a type the
/// translator has never heard of is not translated at all (see
/// `PredicateTranslator+Fallback.swift`): it is evaluated on every row in insertion order, so
/// that it throws where `Array.filter` would. Everything else (arithmetic, `count`, regexes,
/// casts, computed properties that are not columns, `URL` comparisons, …) is decided in Swift.
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

  let dialect: SQLDialect
  let stored: [StoredColumn]
  let storedIndex: (AnyKeyPath) -> Int?
  let foldedIndex: (Int) -> Int?
  private var bindings: [PredicateExpressions.VariableID: Translation] = [:]

  init<Model: PersistentModel>(table: TableDescription<Model>, dialect: SQLDialect = .sqlite) {
    self.dialect = dialect
    self.stored = table.stored
    self.storedIndex = { table.storedIndex(of: $0) }
    self.foldedIndex = { table.foldedIndex(ofColumn: $0) }
  }

  /// Translates `predicate`, or `.everything` when it is `nil`; `nil` when it must be evaluated
  /// in Swift on every row.
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
      return (
        SQLFragment(sql: dialect.columnName(stored[position]), row: .column(position)), nullable
      )
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

  /// A `Bool` constant in the dialect.
  func literal(_ flag: Bool) -> SQLFragment {
    SQLFragment(sql: dialect.literal(flag), row: .constant(.integer(flag ? 1 : 0)))
  }

  /// A bound constant of `kind`.
  func parameter(_ value: SQLValue, kind: ValueKind) -> SQLFragment {
    SQLFragment(
      sql: dialect.parameter(kind), parameters: [value], kinds: [kind], row: .constant(value))
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

/// An expression node the translator knows.
protocol TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation
}
