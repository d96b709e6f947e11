import Foundation
import Persistence

/// What one operation of a case answered.
enum Outcome: Equatable, CustomStringConvertible {
  case done
  case models([Sample])
  case count(Int)
  case failed(PersistenceError)
  case otherError(String)

  /// Equal when every stored bit is: the same models (``Sample/isIdentical(to:)``) in order.
  static func == (lhs: Outcome, rhs: Outcome) -> Bool {
    switch (lhs, rhs) {
    case (.done, .done): return true
    case (.models(let left), .models(let right)):
      return left.count == right.count
        && zip(left, right).allSatisfy { $0.isIdentical(to: $1) }
    case (.count(let left), .count(let right)): return left == right
    case (.failed(let left), .failed(let right)): return left == right
    case (.otherError(let left), .otherError(let right)): return left == right
    default: return false
    }
  }

  var description: String {
    switch self {
    case .done: return "done"
    case .models(let samples):
      let shown = samples.prefix(8).map { "\n      \($0.source)" }.joined()
      let more = samples.count > 8 ? "\n      … \(samples.count - 8) more" : ""
      return "\(samples.count) models, ids \(samples.map(\.id))\(shown)\(more)"
    case .count(let count): return "count \(count)"
    case .failed(let error): return "error: \(error)"
    case .otherError(let error): return "unexpected error: \(error)"
    }
  }
}

/// Runs generated cases on both backends and on ``ReferenceStore``, and shrinks a case on which
/// they disagree to the smallest one that still does.
///
/// One container of each kind serves every case: each case starts by deleting every row.
final class DifferentialRunner {
  private let memory: ModelContext
  private let sqlite: ModelContext
  private let folder = TemporaryFolder(preferringMemory: true)
  /// Makes the reference wrong on purpose (see ``ReferenceStore/ignoresOffsets``).
  private let ignoresOffsets: Bool

  init(ignoresOffsets: Bool = false) throws {
    self.ignoresOffsets = ignoresOffsets
    memory = ModelContext(try ModelContainer(for: Sample.self, storage: .inMemory))
    sqlite = ModelContext(
      try ModelContainer(for: Sample.self, storage: .file(folder.path("differential.sqlite"))))
  }

  /// The answers of a backend, one per operation.
  func outcomes(_ differentialCase: DifferentialCase, on context: ModelContext) -> [Outcome] {
    do {
      try context.delete(Sample.self, where: #Predicate { _ in true })
    } catch {
      return [.otherError("clearing the table failed: \(error)")]
    }
    return differentialCase.operations.map { operation in
      do {
        switch operation {
        case .insert(let sample):
          try context.insert(sample)
          return .done
        case .update(let sample):
          try context.update(sample)
          return .done
        case .delete(let id):
          try context.delete(Sample.self, id: id)
          return .done
        case .deleteWhere(let condition):
          return .count(try context.delete(Sample.self, where: condition.predicate))
        case .fetch(let query):
          return .models(try context.fetch(query.descriptor))
        case .count(let query):
          return .count(try context.fetchCount(query.descriptor))
        }
      } catch let error as PersistenceError {
        return .failed(error)
      } catch {
        return .otherError("\(error)")
      }
    }
  }

  /// The answers of ``ReferenceStore``, one per operation.
  func referenceOutcomes(_ differentialCase: DifferentialCase) -> [Outcome] {
    var store = ReferenceStore()
    store.ignoresOffsets = ignoresOffsets
    return differentialCase.operations.map { operation in
      do throws(PersistenceError) {
        switch operation {
        case .insert(let sample):
          try store.insert(sample)
          return .done
        case .update(let sample):
          try store.update(sample)
          return .done
        case .delete(let id):
          try store.delete(id: id)
          return .done
        case .deleteWhere(let condition):
          return .count(try store.delete(where: condition))
        case .fetch(let query):
          return .models(try store.fetch(query))
        case .count(let query):
          return .count(try store.fetch(query).count)
        }
      } catch {
        return .failed(error)
      }
    }
  }

  /// Where the three disagree first, described; `nil` when they agree on every operation.
  func disagreement(_ differentialCase: DifferentialCase) -> String? {
    let inMemory = outcomes(differentialCase, on: memory)
    let inSQLite = outcomes(differentialCase, on: sqlite)
    let reference = referenceOutcomes(differentialCase)
    for index in differentialCase.operations.indices {
      let answers = [inMemory, inSQLite, reference].map { index < $0.count ? $0[index] : nil }
      guard answers[0] != answers[1] || answers[0] != answers[2] else { continue }
      let operation = DifferentialCase(operations: [differentialCase.operations[index]]).source
      func show(_ answer: Outcome?) -> String { answer.map { "\($0)" } ?? "nothing" }
      return """
        operation \(index + 1), \(operation)
          in memory: \(show(answers[0]))
          SQLite:    \(show(answers[1]))
          reference: \(show(answers[2]))
        """
    }
    return nil
  }

  /// The smallest case found that still disagrees: operations removed (many at a time first),
  /// then predicates, sorts, windows and values made simpler, until no change keeps it failing.
  func shrink(_ differentialCase: DifferentialCase) -> DifferentialCase {
    var smallest = differentialCase
    var changed = true
    while changed {
      changed = false
      for candidate in smallest.smaller where disagreement(candidate) != nil {
        smallest = candidate
        changed = true
        break
      }
    }
    return smallest
  }

  /// Runs cases `range` of the run seeded with `seed`; on the first disagreement, returns its
  /// report: the seed, how to replay it, the smallest case and where it disagrees.
  func run(seed: UInt64, cases range: Range<Int>) -> String? {
    for index in range {
      var generator = CaseGenerator(seed: Generator.caseSeed(seed, index))
      let differentialCase = generator.differentialCase()
      guard disagreement(differentialCase) != nil else { continue }
      let smallest = shrink(differentialCase)
      return """
        The backends and the reference disagree on generated case \(index) of seed \(seed).
        Replay it with LOOP_DIFFERENTIAL_SEED=\(seed) LOOP_DIFFERENTIAL_CASE=\(index).

        The smallest case that still disagrees (\(smallest.operations.count) operations, on an \
        empty table):
        \(smallest.source)

        \(disagreement(smallest) ?? "(it agreed when run again: the disagreement is not deterministic)")
        """
    }
    return nil
  }
}
