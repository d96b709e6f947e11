import Foundation
import Persistence

/// A relation between a column and a constant in a generated predicate.
enum Relation: CaseIterable {
  case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

  var symbol: String {
    switch self {
    case .equal: return "=="
    case .notEqual: return "!="
    case .less: return "<"
    case .lessOrEqual: return "<="
    case .greater: return ">"
    case .greaterOrEqual: return ">="
    }
  }
}

/// A generated predicate on ``Sample``, as data: it can be printed as Swift source, made smaller
/// when a case is shrunk, and built into a `Predicate`.
indirect enum Condition {
  case leaf(Leaf)
  case and(Condition, Condition)
  case or(Condition, Condition)
  case not(Condition)

  /// One comparison or test.
  ///
  /// The comments say how the SQLite backend answers each: in SQL, in SQL then Swift (a
  /// superset), in Swift, or on every row (it may throw).
  enum Leaf {
    case int(Relation, Int)  // SQL
    case big(Relation, Int64)  // SQL
    case real(Relation, Double)  // SQL (Swift for NaN)
    case date(Relation, Date)  // SQL (Swift for NaN)
    case text(Relation, String)  // SQL
    case uuid(Relation, UUID)  // SQL
    case maybeReal(negated: Bool, Double?)  // SQL, IS / IS NOT
    case note(negated: Bool, String?)  // SQL, IS / IS NOT
    case maybeFlag(negated: Bool, Bool?)  // SQL
    case code(negated: Bool, Int?)  // SQL
    case kind(Kind)  // SQL
    case data(Data)  // SQL (blobs)
    case link(URL?)  // Swift (URL equality)
    case flag  // SQL
    case textIsEmpty  // SQL
    case textContains(String)  // superset
    case textStarts(String)  // superset
    case foldedEquals(String)  // SQL, on the folded column
    case foldedContains(String)  // superset, on the folded column
    case noteFoldedContains(String)  // superset, through flatMap
    case maybeRealAbove(Double)  // SQL, through flatMap
    case intIn([Int])  // SQL
    case realIn([Double])  // SQL (Swift when a member is NaN)
    case noteIn([String?])  // SQL
    case noteOrEmpty(String)  // SQL, COALESCE
    case dateBeforeDue(Date)  // SQL, column against COALESCE
    case textCount(Relation, Int)  // Swift
    case intRemainder(modulus: Int, Int)  // Swift
    case constant(Bool)  // SQL
    case forcedNote(String)  // every row: throws on a nil note
    case forcedMaybeReal(Relation, Double)  // every row: throws on a nil maybeReal
  }

  /// Whether evaluating the condition can throw (it holds a force unwrap).
  var mayThrow: Bool {
    switch self {
    case .leaf(.forcedNote), .leaf(.forcedMaybeReal): return true
    case .leaf: return false
    case .and(let lhs, let rhs), .or(let lhs, let rhs): return lhs.mayThrow || rhs.mayThrow
    case .not(let inner): return inner.mayThrow
    }
  }

  /// Smaller conditions to try in its place when a case is shrunk: its parts, then itself with
  /// one part made smaller.
  var smaller: [Condition] {
    switch self {
    case .leaf(.constant): return []
    case .leaf: return [.leaf(.constant(true)), .leaf(.constant(false))]
    case .and(let lhs, let rhs):
      return [lhs, rhs] + lhs.smaller.map { .and($0, rhs) } + rhs.smaller.map { .and(lhs, $0) }
    case .or(let lhs, let rhs):
      return [lhs, rhs] + lhs.smaller.map { .or($0, rhs) } + rhs.smaller.map { .or(lhs, $0) }
    case .not(let inner):
      return [inner] + inner.smaller.map { .not($0) }
    }
  }

  /// The condition as `#Predicate` source.
  var source: String {
    switch self {
    case .leaf(let leaf): return leaf.source
    case .and(let lhs, let rhs): return "(\(lhs.source) && \(rhs.source))"
    case .or(let lhs, let rhs): return "(\(lhs.source) || \(rhs.source))"
    case .not(let inner): return "!\(inner.source)"
    }
  }

  /// The condition as a `Predicate`.
  var predicate: Predicate<Sample> {
    Predicate<Sample> { variable in expression(variable) }
  }

  typealias Expression = any StandardPredicateExpression<Bool>
  typealias Variable = PredicateExpressions.Variable<Sample>

  func expression(_ variable: Variable) -> Expression {
    switch self {
    case .leaf(let leaf): return leaf.expression(variable)
    case .and(let lhs, let rhs):
      return combine(lhs.expression(variable), rhs.expression(variable), or: false)
    case .or(let lhs, let rhs):
      return combine(lhs.expression(variable), rhs.expression(variable), or: true)
    case .not(let inner): return negation(inner.expression(variable))
    }
  }
}

// MARK: - Building expressions

/// `lhs && rhs`, or `lhs || rhs` when `or`.
private func combine(_ lhs: Condition.Expression, _ rhs: Condition.Expression, or: Bool)
  -> Condition.Expression
{
  func build<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(
    _ lhs: L, _ rhs: R
  ) -> Condition.Expression {
    or
      ? PredicateExpressions.Disjunction(lhs: lhs, rhs: rhs)
      : PredicateExpressions.Conjunction(lhs: lhs, rhs: rhs)
  }
  return build(lhs, rhs)
}

private func negation(_ inner: Condition.Expression) -> Condition.Expression {
  func build<I: StandardPredicateExpression<Bool>>(_ inner: I) -> Condition.Expression {
    PredicateExpressions.Negation(inner)
  }
  return build(inner)
}

/// `lhs <relation> value`.
private func relate<LHS: StandardPredicateExpression>(
  _ lhs: LHS, _ relation: Relation, _ value: LHS.Output
) -> Condition.Expression where LHS.Output: Comparable & Codable & Sendable {
  let rhs = PredicateExpressions.Value(value)
  switch relation {
  case .equal: return PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
  case .notEqual: return PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs)
  case .less: return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThan)
  case .lessOrEqual:
    return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThanOrEqual)
  case .greater: return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThan)
  case .greaterOrEqual:
    return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThanOrEqual)
  }
}

/// `lhs == value`, or `lhs != value` when `negated`.
private func equal<LHS: StandardPredicateExpression>(
  _ lhs: LHS, _ value: LHS.Output, negated: Bool = false
) -> Condition.Expression where LHS.Output: Equatable & Codable & Sendable {
  let rhs = PredicateExpressions.Value(value)
  if negated { return PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs) }
  return PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
}

extension Condition.Leaf {
  func expression(_ variable: Condition.Variable) -> Condition.Expression {
    func column<V>(_ keyPath: KeyPath<Sample, V> & Sendable)
      -> PredicateExpressions.KeyPath<Condition.Variable, V>
    {
      PredicateExpressions.KeyPath(root: variable, keyPath: keyPath)
    }
    let text = column(\.text)
    let note = column(\.note)
    switch self {
    case .int(let relation, let value): return relate(column(\.int), relation, value)
    case .big(let relation, let value): return relate(column(\.big), relation, value)
    case .real(let relation, let value): return relate(column(\.real), relation, value)
    case .date(let relation, let value): return relate(column(\.date), relation, value)
    case .text(let relation, let value): return relate(text, relation, value)
    case .uuid(let relation, let value): return relate(column(\.uuid), relation, value)
    case .maybeReal(let negated, let value):
      return equal(column(\.maybeReal), value, negated: negated)
    case .note(let negated, let value): return equal(note, value, negated: negated)
    case .maybeFlag(let negated, let value):
      return equal(column(\.maybeFlag), value, negated: negated)
    case .code(let negated, let value): return equal(column(\.code), value, negated: negated)
    case .kind(let kind): return equal(column(\.kind), kind)
    case .data(let data): return equal(column(\.data), data)
    case .link(let link): return equal(column(\.link), link)
    case .flag: return column(\.flag)
    case .textIsEmpty: return PredicateExpressions.KeyPath(root: text, keyPath: \String.isEmpty)
    case .textContains(let part):
      return PredicateExpressions.build_contains(text, PredicateExpressions.Value(part))
    case .textStarts(let prefix):
      return PredicateExpressions.build_starts(text, with: PredicateExpressions.Value(prefix))
    case .foldedEquals(let folded):
      return equal(PredicateExpressions.KeyPath(root: text, keyPath: \String.caseFolded), folded)
    case .foldedContains(let part):
      return PredicateExpressions.build_contains(
        PredicateExpressions.KeyPath(root: text, keyPath: \String.caseFolded),
        PredicateExpressions.Value(part))
    case .noteFoldedContains(let part):
      let flatMap = PredicateExpressions.OptionalFlatMap(note) { inner in
        PredicateExpressions.build_contains(
          PredicateExpressions.KeyPath(root: inner, keyPath: \String.caseFolded),
          PredicateExpressions.Value(part))
      }
      return equal(flatMap, true as Bool?)
    case .maybeRealAbove(let bound):
      let flatMap = PredicateExpressions.OptionalFlatMap(column(\.maybeReal)) { inner in
        PredicateExpressions.Comparison(
          lhs: inner, rhs: PredicateExpressions.Value(bound), op: .greaterThan)
      }
      return equal(flatMap, true as Bool?)
    case .intIn(let members):
      return PredicateExpressions.build_contains(
        PredicateExpressions.Value(members), column(\.int))
    case .realIn(let members):
      return PredicateExpressions.build_contains(
        PredicateExpressions.Value(members), column(\.real))
    case .noteIn(let members):
      return PredicateExpressions.build_contains(PredicateExpressions.Value(members), note)
    case .noteOrEmpty(let value):
      return equal(
        PredicateExpressions.NilCoalesce(lhs: note, rhs: PredicateExpressions.Value("")), value)
    case .dateBeforeDue(let fallback):
      let due = PredicateExpressions.NilCoalesce(
        lhs: column(\.due), rhs: PredicateExpressions.Value(fallback))
      return PredicateExpressions.Comparison(lhs: column(\.date), rhs: due, op: .lessThan)
    case .textCount(let relation, let count):
      return relate(
        PredicateExpressions.KeyPath(root: text, keyPath: \String.count), relation, count)
    case .intRemainder(let modulus, let remainder):
      return equal(
        PredicateExpressions.IntRemainder(
          lhs: column(\.int), rhs: PredicateExpressions.Value(modulus)), remainder)
    case .constant(let value): return PredicateExpressions.Value(value)
    case .forcedNote(let value):
      return equal(PredicateExpressions.ForcedUnwrap(note), value)
    case .forcedMaybeReal(let relation, let value):
      return relate(PredicateExpressions.ForcedUnwrap(column(\.maybeReal)), relation, value)
    }
  }

  var source: String {
    func list<T>(_ members: [T], _ describe: (T) -> String) -> String {
      "[\(members.map(describe).joined(separator: ", "))]"
    }
    func optional<T>(_ value: T?, _ describe: (T) -> String) -> String {
      value.map(describe) ?? "nil"
    }
    func equality(_ negated: Bool) -> String { negated ? "!=" : "==" }
    switch self {
    case .int(let relation, let value): return "$0.int \(relation.symbol) \(literal(value))"
    case .big(let relation, let value): return "$0.big \(relation.symbol) \(literal(value))"
    case .real(let relation, let value): return "$0.real \(relation.symbol) \(literal(value))"
    case .date(let relation, let value): return "$0.date \(relation.symbol) \(literal(value))"
    case .text(let relation, let value): return "$0.text \(relation.symbol) \(literal(value))"
    case .uuid(let relation, let value):
      return "$0.uuid \(relation.symbol) UUID(uuidString: \"\(value.uuidString)\")!"
    case .maybeReal(let negated, let value):
      return "$0.maybeReal \(equality(negated)) \(optional(value, literal))"
    case .note(let negated, let value):
      return "$0.note \(equality(negated)) \(optional(value, literal))"
    case .maybeFlag(let negated, let value):
      return "$0.maybeFlag \(equality(negated)) \(optional(value) { "\($0)" })"
    case .code(let negated, let value):
      return "$0.code \(equality(negated)) \(optional(value) { "\($0)" })"
    case .kind(let kind): return "$0.kind == .\(kind.rawValue)"
    case .data(let data): return "$0.data == Data(\(Array(data)))"
    case .link(let link):
      return "$0.link == \(optional(link) { "URL(string: \(literal($0.absoluteString)))" })"
    case .flag: return "$0.flag"
    case .textIsEmpty: return "$0.text.isEmpty"
    case .textContains(let part): return "$0.text.contains(\(literal(part)))"
    case .textStarts(let prefix): return "$0.text.starts(with: \(literal(prefix)))"
    case .foldedEquals(let folded): return "$0.text.caseFolded == \(literal(folded))"
    case .foldedContains(let part): return "$0.text.caseFolded.contains(\(literal(part)))"
    case .noteFoldedContains(let part):
      return "$0.note.flatMap { $0.caseFolded.contains(\(literal(part))) } == true"
    case .maybeRealAbove(let bound):
      return "$0.maybeReal.flatMap { $0 > \(literal(bound)) } == true"
    case .intIn(let members): return "\(list(members, literal)).contains($0.int)"
    case .realIn(let members): return "\(list(members, literal)).contains($0.real)"
    case .noteIn(let members):
      return "\(list(members) { optional($0, literal) }).contains($0.note)"
    case .noteOrEmpty(let value): return "($0.note ?? \"\") == \(literal(value))"
    case .dateBeforeDue(let fallback): return "$0.date < ($0.due ?? \(literal(fallback)))"
    case .textCount(let relation, let count): return "$0.text.count \(relation.symbol) \(count)"
    case .intRemainder(let modulus, let remainder):
      return "$0.int % \(modulus) == \(remainder)"
    case .constant(let value): return "\(value)"
    case .forcedNote(let value): return "$0.note! == \(literal(value))"
    case .forcedMaybeReal(let relation, let value):
      return "$0.maybeReal! \(relation.symbol) \(literal(value))"
    }
  }
}
