import Foundation
import Persistence

/// What the documentation says a container does, written as plainly as possible over a Swift
/// array: the answer the differential tests hold both backends to.
///
/// Rows are kept in insertion order, as stored (strings in normalization form C). A predicate is
/// `Predicate.evaluate` on every row in order, a sort is `SortDescriptor.compare` with ties in
/// insertion order, a window is what fits.
struct ReferenceStore {
  private(set) var rows: [Sample] = []

  /// A deliberate mistake, for the test that checks a disagreement is found and shrunk.
  var ignoresOffsets = false

  mutating func insert(_ sample: Sample) throws(PersistenceError) {
    try check(sample)
    if rows.contains(where: { $0.id == sample.id }) {
      throw .duplicateID(model: "Sample", id: "\(sample.id)")
    }
    try checkUnique(sample)
    rows.append(stored(sample))
  }

  mutating func update(_ sample: Sample) throws(PersistenceError) {
    try check(sample)
    guard let position = rows.firstIndex(where: { $0.id == sample.id }) else {
      throw .notFound(model: "Sample", id: "\(sample.id)")
    }
    try checkUnique(sample)
    rows[position] = stored(sample)
  }

  mutating func delete(id: Int) throws(PersistenceError) {
    guard let position = rows.firstIndex(where: { $0.id == id }) else {
      throw .notFound(model: "Sample", id: "\(id)")
    }
    rows.remove(at: position)
  }

  mutating func delete(where condition: Condition) throws(PersistenceError) -> Int {
    let doomed = try matching(condition.predicate)
    rows = rows.enumerated().filter { !doomed.contains($0.offset) }.map(\.element)
    return doomed.count
  }

  func fetch(_ query: Query) throws(PersistenceError) -> [Sample] {
    if let limit = query.limit, limit < 0 {
      throw .invalidFetch(model: "Sample", reason: "fetchLimit is \(limit), below 0")
    }
    if let offset = query.offset, offset < 0 {
      throw .invalidFetch(model: "Sample", reason: "fetchOffset is \(offset), below 0")
    }
    var matches = Array(rows.indices)
    if let condition = query.condition { matches = try matching(condition.predicate) }
    let descriptors = query.sorts.map(\.descriptor)
    let sorted = matches.sorted { left, right in
      for descriptor in descriptors {
        switch descriptor.compare(rows[left], rows[right]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: continue
        }
      }
      return left < right
    }
    let start = ignoresOffsets ? 0 : min(query.offset ?? 0, sorted.count)
    let count = min(query.limit ?? sorted.count, sorted.count - start)
    return sorted[start..<(start + count)].map { rows[$0] }
  }

  /// The positions of the rows the predicate accepts, evaluated on every row in order.
  private func matching(_ predicate: Predicate<Sample>) throws(PersistenceError) -> [Int] {
    var positions: [Int] = []
    for (position, row) in rows.enumerated() {
      do {
        if try predicate.evaluate(row) { positions.append(position) }
      } catch {
        throw .predicateFailed(model: "Sample", reason: "\(error)")
      }
    }
    return positions
  }

  /// NaN cannot be stored: the first column holding it, in schema order, is reported.
  private func check(_ sample: Sample) throws(PersistenceError) {
    func refuse(_ column: String, _ value: String) -> PersistenceError {
      .invalidValue(model: "Sample", column: column, value: value)
    }
    if sample.real.isNaN { throw refuse("real", "\(sample.real)") }
    if let real = sample.maybeReal, real.isNaN {
      throw refuse("maybe_real", String(describing: Optional(real)))
    }
    if sample.date.timeIntervalSinceReferenceDate.isNaN { throw refuse("date", "nan") }
    if let due = sample.due, due.timeIntervalSinceReferenceDate.isNaN {
      throw refuse("due", "nan")
    }
  }

  /// `code` is unique among rows that have one.
  private func checkUnique(_ sample: Sample) throws(PersistenceError) {
    guard let code = sample.code else { return }
    if rows.contains(where: { $0.code == code && $0.id != sample.id }) {
      throw .uniqueViolation(model: "Sample", columns: ["code"], id: "\(sample.id)")
    }
  }

  /// The sample as stored: strings in normalization form C, as the standard library computes it
  /// (the form `String` compares in).
  private func stored(_ sample: Sample) -> Sample {
    func normalized(_ text: String) -> String {
      String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }
    var stored = sample
    stored.text = normalized(sample.text)
    stored.note = sample.note.map(normalized)
    return stored
  }
}
