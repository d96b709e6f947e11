import Foundation
import Synchronization

// The rule for falling back to Swift on every row: a predicate holding a node that can throw in
// Swift, or a node of a type the translator does not know (which might), is not translated at
// all. It is evaluated with `Predicate.evaluate` on every row in insertion order, so that it
// throws on the same row as `Array.filter` and as the in-memory backend.

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
func mayThrowOrIsUnknown(_ expression: Any) -> Bool {
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
