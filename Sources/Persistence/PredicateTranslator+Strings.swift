import Foundation

// Strings: `contains(_:)` and `starts(with:)` as a search for the text (`instr` in SQLite,
// `strpos` in PostgreSQL): a superset, since SQL finds bytes where Swift finds whole characters.

extension PredicateExpressions.CollectionContainsCollection: TranslatableExpression {
  func translate(with translator: inout PredicateTranslator) -> PredicateTranslator.Translation {
    guard Base.Output.self == String.self, Other.Output.self == String.self,
      case (let haystack, false)? = translator.value(translator.translate(base)),
      case (let needle, false)? = translator.value(translator.translate(other))
    else { return .unknown }
    let find = translator.dialect.findFunction
    return .superset(
      ("(" + find + "(" + haystack + ", " + needle + ") > 0)").computing(
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
    let find = translator.dialect.findFunction
    return .superset(
      ("(" + find + "(" + string + ", " + prefix + ") = 1)").computing(
        both(string, prefix) {
          .equal(.instr($0, $1), .constant(.integer(1)), nullSafe: false)
        }))
  }
}
