import Foundation
import Persistence
import TestSupport
import Testing

/// Every predicate operator, on both backends, over the same rows.
@Suite struct PredicateTests {
  static let rows: [Item] = [
    Item(
      id: 1, title: "Äpfel", note: nil, count: 1, score: 1.5, isDone: true, flag: nil,
      date: date(100), dueDate: nil, kind: .article, big: 10),
    Item(
      id: 2, title: "äpfel und Birnen", note: "b", count: 2, score: -2, isDone: false, flag: true,
      date: date(200), dueDate: date(250), kind: .video, big: 20),
    Item(
      id: 3, title: "100% sure_thing", note: "a", count: 3, score: 0, isDone: true, flag: false,
      date: date(300), dueDate: date(150), kind: .note, big: 30),
    Item(
      id: 4, title: "apple", note: "", count: 4, score: 10, isDone: false, flag: nil,
      date: date(50), dueDate: nil, kind: .article, link: url("https://example.com/4")),
    Item(
      id: 5, title: "Straße", note: "STRASSE", count: 5, score: 2.5, isDone: false, flag: true,
      date: date(400), dueDate: date(400), kind: .video),
    Item(
      id: 6, title: "cafe\u{301}", note: "x_y", count: 6, score: 3, isDone: true, flag: false,
      date: date(500), dueDate: nil, kind: .note),
    Item(
      id: 7, title: "100 sure thing", note: "a", count: 7, score: 4, isDone: false, flag: nil,
      date: date(150), dueDate: date(100), kind: .article),
  ]

  private func ids(
    _ backend: Backend, _ predicate: Predicate<Item>, limit: Int? = nil
  ) throws -> [Int] {
    let store = try Store(backend)
    for row in Self.rows { try store.context.insert(row) }
    return try store.context.fetchAll(Item.self, predicate: predicate, limit: limit).map(\.id)
  }

  // MARK: Comparisons

  @Test(arguments: Backend.allCases)
  func equalMatchesOneValue(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.count == 3 }) == [3])
  }

  @Test(arguments: Backend.allCases)
  func notEqualExcludesOneValue(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.count != 3 }) == [1, 2, 4, 5, 6, 7])
  }

  @Test(arguments: Backend.allCases)
  func lessThanAndLessThanOrEqual(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.count < 3 }) == [1, 2])
    #expect(try ids(backend, #Predicate { $0.count <= 3 }) == [1, 2, 3])
  }

  @Test(arguments: Backend.allCases)
  func greaterThanAndGreaterThanOrEqual(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.score > 2.5 }) == [4, 6, 7])
    #expect(try ids(backend, #Predicate { $0.score >= 2.5 }) == [4, 5, 6, 7])
  }

  @Test(arguments: Backend.allCases)
  func int64AndEnumComparisons(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.big >= 20 }) == [2, 3])
    let kind = Kind.video
    #expect(try ids(backend, #Predicate { $0.kind == kind }) == [2, 5])
  }

  @Test(arguments: Backend.allCases)
  func dateComparisons(_ backend: Backend) throws {
    let cutoff = date(200)
    #expect(try ids(backend, #Predicate { $0.date < cutoff }) == [1, 4, 7])
    #expect(try ids(backend, #Predicate { $0.date == cutoff }) == [2])
    #expect(try ids(backend, #Predicate { $0.date >= cutoff }) == [2, 3, 5, 6])
  }

  @Test(arguments: Backend.allCases)
  func canonicallyEquivalentStringsAreEqual(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.title == "caf\u{E9}" }) == [6])
  }

  // MARK: Logic

  @Test(arguments: Backend.allCases)
  func andOrNot(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.isDone && $0.count > 1 }) == [3, 6])
    #expect(try ids(backend, #Predicate { $0.count == 1 || $0.count == 7 }) == [1, 7])
    #expect(try ids(backend, #Predicate { !($0.count > 2) }) == [1, 2])
  }

  @Test(arguments: Backend.allCases)
  func boolFields(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.isDone }) == [1, 3, 6])
    #expect(try ids(backend, #Predicate { !$0.isDone }) == [2, 4, 5, 7])
    #expect(try ids(backend, #Predicate { $0.flag == true }) == [2, 5])
  }

  // MARK: Optionals

  @Test(arguments: Backend.allCases)
  func nilChecks(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.note == nil }) == [1])
    #expect(try ids(backend, #Predicate { $0.note != nil }) == [2, 3, 4, 5, 6, 7])
    #expect(try ids(backend, #Predicate { !($0.dueDate == nil) }) == [2, 3, 5, 7])
  }

  @Test(arguments: Backend.allCases)
  func negatedOptionalComparisonIncludesNil(_ backend: Backend) throws {
    // Swift: `nil == "a"` is false, so its negation is true (SQL's NOT NULL would drop row 1).
    #expect(try ids(backend, #Predicate { !($0.note == "a") }) == [1, 2, 4, 5, 6])
    #expect(try ids(backend, #Predicate { $0.flag != true }) == [1, 3, 4, 6, 7])
  }

  @Test(arguments: Backend.allCases)
  func optionalComparisonThroughFlatMap(_ backend: Backend) throws {
    let cutoff = date(200)
    #expect(try ids(backend, #Predicate { $0.dueDate.flatMap { $0 > cutoff } == true }) == [2, 5])
    #expect(
      try ids(backend, #Predicate { !($0.dueDate.flatMap { $0 > cutoff } == true) })
        == [1, 3, 4, 6, 7])
  }

  @Test(arguments: Backend.allCases)
  func nilCoalescing(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { ($0.note ?? "") == "" }) == [1, 4])
  }

  // MARK: Strings

  @Test(arguments: Backend.allCases)
  func containsIsCaseSensitive(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.title.contains("pfel") }) == [1, 2])
    #expect(try ids(backend, #Predicate { $0.title.contains("Äpfel") }) == [1])
    #expect(try ids(backend, #Predicate { $0.title.contains("APPLE") }) == [])
  }

  @Test(arguments: Backend.allCases)
  func containsMatchesPercentAndUnderscoreLiterally(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.title.contains("0% s") }) == [3])
    #expect(try ids(backend, #Predicate { $0.title.contains("e_t") }) == [3])
    #expect(try ids(backend, #Predicate { $0.title.contains("%") }) == [3])
  }

  @Test(arguments: Backend.allCases)
  func containsComparesWholeCharacters(_ backend: Backend) throws {
    // "cafe\u{301}" ends in the character "é": it does not contain "e".
    #expect(try ids(backend, #Predicate { $0.title.contains("caf") }) == [6])
    #expect(try ids(backend, #Predicate { $0.title.contains("afe") }) == [])
  }

  @Test(arguments: Backend.allCases)
  func caseInsensitiveContainsMatchesNonASCII(_ backend: Backend) throws {
    for query in ["äpfel", "ÄPFEL", "Äpfel"] {
      let folded = query.caseFolded
      #expect(
        try ids(backend, #Predicate { $0.title.caseFolded.contains(folded) }) == [1, 2],
        "query \(query)")
    }
  }

  @Test(arguments: Backend.allCases)
  func caseInsensitiveSearchOnOptionalColumn(_ backend: Backend) throws {
    let folded = "strasse".caseFolded
    #expect(
      try ids(backend, #Predicate { $0.note.flatMap { $0.caseFolded == folded } == true }) == [5]
    )
    let street = "STRASSE".caseFolded
    #expect(try ids(backend, #Predicate { $0.title.caseFolded == street }) == [5])
  }

  @Test(arguments: Backend.allCases)
  func startsWith(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.title.starts(with: "100") }) == [3, 7])
    #expect(try ids(backend, #Predicate { $0.title.starts(with: "100%") }) == [3])
    #expect(try ids(backend, #Predicate { $0.title.starts(with: "") }) == [1, 2, 3, 4, 5, 6, 7])
  }

  @Test(arguments: Backend.allCases)
  func isEmpty(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.note.flatMap { $0.isEmpty } == true }) == [4])
  }

  // MARK: Membership

  @Test(arguments: Backend.allCases)
  func membershipInAConstantArray(_ backend: Backend) throws {
    let counts = [1, 3, 99]
    #expect(try ids(backend, #Predicate { counts.contains($0.count) }) == [1, 3])
    let kinds: [Kind] = [.note, .video]
    #expect(try ids(backend, #Predicate { kinds.contains($0.kind) }) == [2, 3, 5, 6])
    let none: [Int] = []
    #expect(try ids(backend, #Predicate { none.contains($0.count) }) == [])
  }

  @Test(arguments: Backend.allCases)
  func membershipOfOptionalsHandlesNil(_ backend: Backend) throws {
    let notes: [String?] = [nil, "a"]
    #expect(try ids(backend, #Predicate { notes.contains($0.note) }) == [1, 3, 7])
    let some: [String?] = ["b"]
    #expect(try ids(backend, #Predicate { !some.contains($0.note) }) == [1, 3, 4, 5, 6, 7])
  }

  // MARK: Evaluated in Swift

  @Test(arguments: Backend.allCases)
  func untranslatablePredicateIsAnsweredInSwift(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { $0.title.count > 6 }) == [2, 3, 7])
    #expect(try ids(backend, #Predicate { $0.count * 2 == 8 }) == [4])
  }

  @Test(arguments: Backend.allCases)
  func mixedPredicateAppliesTheLimitAfterSwiftFiltering(_ backend: Backend) throws {
    #expect(
      try ids(backend, #Predicate { $0.count > 1 && $0.title.count > 6 }, limit: 2) == [2, 3])
  }

  @Test(arguments: Backend.allCases)
  func urlEqualityIsAnsweredInSwift(_ backend: Backend) throws {
    let link = url("https://example.com/4")
    #expect(try ids(backend, #Predicate { $0.link == link }) == [4])
  }

  @Test(arguments: Backend.allCases)
  func throwingPredicateFailsWithTheSameError(_ backend: Backend) throws {
    let predicate = #Predicate<Item> { $0.note! == "a" }
    let reason = Self.failure(of: predicate, on: Self.rows[0])
    #expect(throws: PersistenceError.predicateFailed(model: "Item", reason: reason)) {
      try ids(backend, predicate)
    }
  }

  /// A predicate that may throw is evaluated on every row in insertion order, as documented: a
  /// limit, even 0, and an order that SQL could walk do not stop it before the row that throws.
  @Test(arguments: Backend.allCases)
  func throwingPredicateFailsWhateverTheLimitAndOrder(_ backend: Backend) throws {
    let store = try Store(backend)
    for row in Self.rows { try store.context.insert(row) }
    // Row 1 has no note; in reverse count order, row 7 (note "a") comes first and matches.
    let predicate = #Predicate<Item> { $0.note! != "" }
    let reason = Self.failure(of: predicate, on: Self.rows[0])
    for limit in [0, 1] {
      #expect(throws: PersistenceError.predicateFailed(model: "Item", reason: reason)) {
        try store.context.fetchAll(
          Item.self, predicate: predicate, sortBy: [SortDescriptor(\.count, order: .reverse)],
          limit: limit)
      }
    }
  }

  /// What `predicate` throws on `row`, as text (a backend's `predicateFailed` carries it).
  private static func failure(of predicate: Predicate<Item>, on row: Item) -> String {
    do {
      _ = try predicate.evaluate(row)
      return "did not throw"
    } catch {
      return "\(error)"
    }
  }

  @Test(arguments: Backend.allCases)
  func alwaysTrueAndFalse(_ backend: Backend) throws {
    #expect(try ids(backend, #Predicate { _ in true }) == [1, 2, 3, 4, 5, 6, 7])
    #expect(try ids(backend, #Predicate { _ in false }) == [])
  }
}
