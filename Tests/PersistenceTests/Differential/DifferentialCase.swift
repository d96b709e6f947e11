import Foundation
import Persistence

/// One generated case of the differential tests: operations on an empty table, each answered by
/// both backends and by ``ReferenceStore``.
struct DifferentialCase {
  /// What a case does, in order.
  enum Operation {
    case insert(Sample)
    case update(Sample)
    case delete(id: Int)
    case deleteWhere(Condition)
    case fetch(Query)
    case count(Query)
  }

  var operations: [Operation]

  /// The case as Swift-like source, one operation a line.
  var source: String {
    operations.map { operation in
      switch operation {
      case .insert(let sample): return "insert(\(sample.source))"
      case .update(let sample): return "update(\(sample.source))"
      case .delete(let id): return "delete(Sample.self, id: \(literal(id)))"
      case .deleteWhere(let condition):
        return "delete(Sample.self, where: #Predicate { \(condition.source) })"
      case .fetch(let query): return "fetch(\(query.source))"
      case .count(let query): return "fetchCount(\(query.source))"
      }
    }.joined(separator: "\n")
  }

  /// Smaller cases to try in its place when it fails: without a run of operations (half of
  /// them, a quarter, …, one), then with one operation made simpler.
  var smaller: [DifferentialCase] {
    var candidates: [DifferentialCase] = []
    var length = operations.count / 2
    while length >= 1 {
      for start in stride(from: 0, to: operations.count - length + 1, by: length) {
        var fewer = self
        fewer.operations.removeSubrange(start..<(start + length))
        candidates.append(fewer)
      }
      length /= 2
    }
    for index in operations.indices {
      for simpler in Self.simpler(operations[index]) {
        var candidate = self
        candidate.operations[index] = simpler
        candidates.append(candidate)
      }
    }
    return candidates
  }

  private static func simpler(_ operation: Operation) -> [Operation] {
    switch operation {
    case .insert(let sample): return sample.simpler.map { .insert($0) }
    case .update(let sample): return sample.simpler.map { .update($0) }
    case .delete: return []
    case .deleteWhere(let condition): return condition.smaller.map { .deleteWhere($0) }
    case .fetch(let query): return query.simpler.map { .fetch($0) } + [.count(query)]
    case .count(let query): return query.simpler.map { .count($0) }
    }
  }
}

/// A generated fetch: a predicate, sorts, a window.
struct Query {
  var condition: Condition?
  var sorts: [SortKey]
  var limit: Int?
  var offset: Int?

  /// A sort of a generated query: a column (or something computed from one), and a direction.
  struct SortKey {
    enum Path: CaseIterable {
      case int, big, real, maybeReal, date, due, text, textLexical, note, uuid, folded, textCount
      case code
    }

    var path: Path
    var reverse: Bool

    var descriptor: SortDescriptor<Sample> {
      let order: SortOrder = reverse ? .reverse : .forward
      switch path {
      case .int: return SortDescriptor(\.int, order: order)
      case .big: return SortDescriptor(\.big, order: order)
      case .real: return SortDescriptor(\.real, order: order)
      case .maybeReal: return SortDescriptor(\.maybeReal, order: order)
      case .date: return SortDescriptor(\.date, order: order)
      case .due: return SortDescriptor(\.due, order: order)
      case .text: return SortDescriptor(\.text, order: order)
      case .textLexical: return SortDescriptor(\.text, comparator: .lexical, order: order)
      case .note: return SortDescriptor(\.note, order: order)
      case .uuid: return SortDescriptor(\.uuid, order: order)
      case .folded: return SortDescriptor(\.text.caseFolded, order: order)
      case .textCount: return SortDescriptor(\.text.count, order: order)
      case .code: return SortDescriptor(\.code, order: order)
      }
    }

    var source: String {
      let order = reverse ? ", order: .reverse" : ""
      switch path {
      case .textLexical: return "SortDescriptor(\\.text, comparator: .lexical\(order))"
      case .folded: return "SortDescriptor(\\.text.caseFolded\(order))"
      case .textCount: return "SortDescriptor(\\.text.count\(order))"
      case .maybeReal: return "SortDescriptor(\\.maybeReal\(order))"
      default: return "SortDescriptor(\\.\(path)\(order))"
      }
    }
  }

  var descriptor: FetchDescriptor<Sample> {
    var descriptor = FetchDescriptor<Sample>(
      predicate: condition?.predicate, sortBy: sorts.map(\.descriptor))
    descriptor.fetchLimit = limit
    descriptor.fetchOffset = offset
    return descriptor
  }

  var source: String {
    var parts: [String] = []
    if let condition { parts.append("predicate: #Predicate { \(condition.source) }") }
    if !sorts.isEmpty { parts.append("sortBy: [\(sorts.map(\.source).joined(separator: ", "))]") }
    if let limit { parts.append("fetchLimit: \(literal(limit))") }
    if let offset { parts.append("fetchOffset: \(literal(offset))") }
    return parts.joined(separator: ", ")
  }

  /// Simpler queries: without the predicate (or with a part of it), with one sort less, without
  /// the limit or the offset.
  var simpler: [Query] {
    var candidates: [Query] = []
    if let condition {
      candidates.append(with { $0.condition = nil })
      candidates += condition.smaller.map { smaller in with { $0.condition = smaller } }
    }
    for index in sorts.indices {
      candidates.append(with { $0.sorts.remove(at: index) })
    }
    if limit != nil { candidates.append(with { $0.limit = nil }) }
    if offset != nil { candidates.append(with { $0.offset = nil }) }
    return candidates
  }

  private func with(_ change: (inout Query) -> Void) -> Query {
    var copy = self
    change(&copy)
    return copy
  }
}

extension Sample {
  /// The sample with one field back at its default (shrinking keeps the id).
  var simpler: [Sample] {
    let plain = Sample(id: id)
    var candidates: [Sample] = []
    func reset<V>(_ keyPath: WritableKeyPath<Sample, V>, if differs: Bool) {
      guard differs else { return }
      var copy = self
      copy[keyPath: keyPath] = plain[keyPath: keyPath]
      candidates.append(copy)
    }
    reset(\.text, if: !text.unicodeScalars.isEmpty)
    reset(\.note, if: note != nil)
    reset(\.int, if: int != 0)
    reset(\.big, if: big != 0)
    reset(\.real, if: real.bitPattern != 0)
    reset(\.maybeReal, if: maybeReal != nil)
    reset(\.flag, if: flag)
    reset(\.maybeFlag, if: maybeFlag != nil)
    reset(\.date, if: date.timeIntervalSinceReferenceDate.bitPattern != 0)
    reset(\.due, if: due != nil)
    reset(\.kind, if: kind != .article)
    reset(\.uuid, if: uuid != plain.uuid)
    reset(\.data, if: !data.isEmpty)
    reset(\.link, if: link != nil)
    reset(\.code, if: code != nil)
    return candidates
  }
}
