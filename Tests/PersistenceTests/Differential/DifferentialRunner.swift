import Foundation
import Persistence
import TestSupport

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

/// Runs generated cases on every backend and on ``ReferenceStore``, and shrinks a case on which
/// they disagree to the smallest one that still does.
///
/// One container of each kind serves every case: each case starts by deleting every row.
final class DifferentialRunner {
  /// The backends, each with its context, in ``Backend/allCases`` order.
  private let contexts: [(backend: Backend, context: ModelContext)]
  private let folder: TemporaryFolder
  /// Makes the reference wrong on purpose (see ``ReferenceStore/ignoresOffsets``).
  private let ignoresOffsets: Bool

  init(ignoresOffsets: Bool = false) throws {
    self.ignoresOffsets = ignoresOffsets
    let folder = TemporaryFolder(preferringMemory: true)
    self.folder = folder
    contexts = try Backend.allCases.map { backend in
      let storage = backend.storage(file: "differential.sqlite", in: folder.url)
      return (backend, ModelContext(try ModelContainer(for: Sample.self, storage: storage)))
    }
  }

  deinit {
    PostgresTestServer.dropSchema(for: folder.url)
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

  /// Where the backends and the reference disagree first, described; `nil` when they agree on
  /// every operation.
  func disagreement(_ differentialCase: DifferentialCase) -> String? {
    let answers = contexts.map { outcomes(differentialCase, on: $0.context) }
    let reference = referenceOutcomes(differentialCase)
    let names = contexts.map { Self.names[$0.backend] ?? "\($0.backend)" } + ["reference"]
    for index in differentialCase.operations.indices {
      let row = (answers + [reference]).map { index < $0.count ? $0[index] : nil }
      guard row.contains(where: { $0 != row[0] }) else { continue }
      let operation = DifferentialCase(operations: [differentialCase.operations[index]]).source
      let width = names.map(\.count).max() ?? 0
      let lines = zip(names, row).map { name, answer in
        let label = (name + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0)
        return "  \(label)\(answer.map { "\($0)" } ?? "nothing")"
      }
      return "operation \(index + 1), \(operation)\n" + lines.joined(separator: "\n")
    }
    return nil
  }

  /// How a report names each backend.
  private static let names: [Backend: String] = [
    .inMemory: "in memory", .sqlite: "SQLite", .postgres: "PostgreSQL",
  ]

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
