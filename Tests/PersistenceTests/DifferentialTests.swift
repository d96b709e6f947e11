import Foundation
import Persistence
import Testing

/// Generated data, predicates, sorts and ranges through both backends: the answers must be the
/// same models in the same order, and the ones `Predicate.evaluate` and `SortDescriptor.compare`
/// give in Swift (both backends answer what they translate without them).
@Suite struct DifferentialTests {
  typealias Condition = any StandardPredicateExpression<Bool>
  typealias Variable = PredicateExpressions.Variable<Item>

  /// A small deterministic generator (SplitMix64), so a failure can be replayed.
  struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
  }

  static let titles = [
    "Äpfel", "äpfel", "apfel", "APFEL", "Straße", "STRASSE", "cafe\u{301}", "caf\u{E9}", "100%",
    "a_b", "a%b", "ab", "", "zebra", "Zebra", "q\u{301}x", "emoji 🍎", "Birnen und Äpfel",
  ]
  static let notes: [String?] = [nil, nil, "", "a", "A", "ä", "Ä", "note_1", "x%y", "straße"]
  static let queries = ["pfel", "Äp", "ä", "a", "A", "%", "_", "", "b", "ss", "ß", "e", "é", "q"]
  static let dates = (0..<6).map { date(Double($0) * 100) }

  static func makeItems(_ generator: inout Generator, count: Int) -> [Item] {
    (0..<count).map { id in
      var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &bytes) { buffer in
        for offset in buffer.indices { buffer[offset] = UInt8(generator.int(0...3) * 60) }
      }
      return Item(
        id: id, title: generator.pick(titles), note: generator.pick(notes),
        count: generator.int(-3...6), score: Double(generator.int(-4...4)) / 2,
        isDone: generator.chance(50), flag: generator.pick([nil, true, false]),
        date: generator.pick(dates), dueDate: generator.chance(40) ? nil : generator.pick(dates),
        kind: generator.pick(Kind.allCases), uuid: UUID(uuid: bytes),
        big: Int64(generator.int(-2...2)) << 40)
    }
  }

  // MARK: Predicate generation

  static func and(_ lhs: Condition, _ rhs: Condition) -> Condition {
    func build<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(
      _ lhs: L, _ rhs: R
    ) -> Condition {
      PredicateExpressions.Conjunction(lhs: lhs, rhs: rhs)
    }
    return build(lhs, rhs)
  }

  static func or(_ lhs: Condition, _ rhs: Condition) -> Condition {
    func build<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(
      _ lhs: L, _ rhs: R
    ) -> Condition {
      PredicateExpressions.Disjunction(lhs: lhs, rhs: rhs)
    }
    return build(lhs, rhs)
  }

  static func not(_ inner: Condition) -> Condition {
    func build<I: StandardPredicateExpression<Bool>>(_ inner: I) -> Condition {
      PredicateExpressions.Negation(inner)
    }
    return build(inner)
  }

  static func compare<V: Comparable & Codable & Sendable>(
    _ variable: Variable, _ keyPath: KeyPath<Item, V> & Sendable, _ value: V,
    _ generator: inout Generator
  ) -> Condition {
    let lhs = PredicateExpressions.KeyPath(root: variable, keyPath: keyPath)
    let rhs = PredicateExpressions.Value(value)
    switch generator.int(0...5) {
    case 0: return PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
    case 1: return PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs)
    case 2: return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThan)
    case 3: return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .lessThanOrEqual)
    case 4: return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThan)
    default: return PredicateExpressions.Comparison(lhs: lhs, rhs: rhs, op: .greaterThanOrEqual)
    }
  }

  static func equal<V: Equatable & Codable & Sendable>(
    _ variable: Variable, _ keyPath: KeyPath<Item, V> & Sendable, _ value: V, negated: Bool
  ) -> Condition {
    let lhs = PredicateExpressions.KeyPath(root: variable, keyPath: keyPath)
    let rhs = PredicateExpressions.Value(value)
    if negated { return PredicateExpressions.NotEqual(lhs: lhs, rhs: rhs) }
    return PredicateExpressions.Equal(lhs: lhs, rhs: rhs)
  }

  static func leaf(_ variable: Variable, _ generator: inout Generator) -> Condition {
    let title = PredicateExpressions.KeyPath(root: variable, keyPath: \Item.title)
    let note = PredicateExpressions.KeyPath(root: variable, keyPath: \Item.note)
    switch generator.int(0...20) {
    case 0: return compare(variable, \.count, generator.int(-3...6), &generator)
    case 1: return compare(variable, \.score, Double(generator.int(-4...4)) / 2, &generator)
    case 2: return compare(variable, \.date, generator.pick(dates), &generator)
    case 3: return compare(variable, \.title, generator.pick(titles), &generator)
    case 4: return compare(variable, \.big, Int64(generator.int(-2...2)) << 40, &generator)
    case 5:
      let uuid = UUID(uuid: (120, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
      return compare(variable, \.uuid, uuid, &generator)
    case 6:
      return equal(variable, \.note, generator.pick(notes), negated: generator.chance(50))
    case 7:
      return equal(
        variable, \.flag, generator.pick([nil, true, false]), negated: generator.chance(50))
    case 8: return equal(variable, \.kind, generator.pick(Kind.allCases), negated: false)
    case 9: return PredicateExpressions.KeyPath(root: variable, keyPath: \Item.isDone)
    case 10:
      return PredicateExpressions.build_contains(
        title, PredicateExpressions.Value(generator.pick(queries)))
    case 11:
      return PredicateExpressions.build_starts(
        title, with: PredicateExpressions.Value(generator.pick(queries)))
    case 12:
      let folded = PredicateExpressions.KeyPath(root: title, keyPath: \String.caseFolded)
      return PredicateExpressions.build_contains(
        folded, PredicateExpressions.Value(generator.pick(queries).caseFolded))
    case 13:
      let query = generator.pick(queries).caseFolded
      let flatMap = PredicateExpressions.OptionalFlatMap(note) { inner in
        PredicateExpressions.build_contains(
          PredicateExpressions.KeyPath(root: inner, keyPath: \String.caseFolded),
          PredicateExpressions.Value(query))
      }
      return PredicateExpressions.Equal(
        lhs: flatMap, rhs: PredicateExpressions.Value(true as Bool?))
    case 14:
      let cutoff = generator.pick(dates)
      let due = PredicateExpressions.KeyPath(root: variable, keyPath: \Item.dueDate)
      let flatMap = PredicateExpressions.OptionalFlatMap(due) { inner in
        PredicateExpressions.Comparison(
          lhs: inner, rhs: PredicateExpressions.Value(cutoff), op: .greaterThan)
      }
      return PredicateExpressions.Equal(
        lhs: flatMap, rhs: PredicateExpressions.Value(true as Bool?))
    case 15:
      let counts = (0..<generator.int(0...3)).map { _ in generator.int(-3...6) }
      return PredicateExpressions.build_contains(
        PredicateExpressions.Value(counts),
        PredicateExpressions.KeyPath(root: variable, keyPath: \Item.count))
    case 16:
      let members = (0..<generator.int(0...3)).map { _ in generator.pick(notes) }
      return PredicateExpressions.build_contains(PredicateExpressions.Value(members), note)
    case 17:
      let coalesced = PredicateExpressions.NilCoalesce(
        lhs: note, rhs: PredicateExpressions.Value(""))
      return PredicateExpressions.Equal(
        lhs: coalesced, rhs: PredicateExpressions.Value(generator.pick(notes) ?? ""))
    case 18:
      // Evaluated in Swift: String.count.
      let length = PredicateExpressions.KeyPath(root: title, keyPath: \String.count)
      return PredicateExpressions.Comparison(
        lhs: length, rhs: PredicateExpressions.Value(generator.int(0...6)), op: .greaterThan)
    case 19:
      let isEmpty = PredicateExpressions.KeyPath(root: title, keyPath: \String.isEmpty)
      return generator.chance(50) ? isEmpty : not(isEmpty)
    default:
      return PredicateExpressions.Value(generator.chance(50))
    }
  }

  static func condition(_ variable: Variable, depth: Int, _ generator: inout Generator)
    -> Condition
  {
    guard depth > 0, generator.chance(60) else { return leaf(variable, &generator) }
    switch generator.int(0...2) {
    case 0:
      return and(
        condition(variable, depth: depth - 1, &generator),
        condition(variable, depth: depth - 1, &generator))
    case 1:
      return or(
        condition(variable, depth: depth - 1, &generator),
        condition(variable, depth: depth - 1, &generator))
    default:
      return not(condition(variable, depth: depth - 1, &generator))
    }
  }

  static func predicate(_ generator: inout Generator) -> Predicate<Item> {
    var copy = generator
    let predicate = Predicate<Item> { variable in condition(variable, depth: 3, &copy) }
    generator = copy
    return predicate
  }

  static func sorts(_ generator: inout Generator) -> [SortDescriptor<Item>] {
    (0..<generator.int(0...2)).map { _ in
      let order: SortOrder = generator.chance(50) ? .forward : .reverse
      switch generator.int(0...9) {
      case 0: return SortDescriptor(\Item.count, order: order)
      case 1: return SortDescriptor(\Item.title, order: order)
      case 2: return SortDescriptor(\Item.score, order: order)
      case 3: return SortDescriptor(\Item.date, order: order)
      case 4: return SortDescriptor(\Item.dueDate, order: order)
      case 5: return SortDescriptor(\Item.note, order: order)
      case 6: return SortDescriptor(\Item.uuid, order: order)
      case 7: return SortDescriptor(\Item.big, order: order)
      case 8: return SortDescriptor(\Item.title.caseFolded, order: order)
      default: return SortDescriptor(\Item.title.count, order: order)
      }
    }
  }

  /// The answer in Swift: the models (in insertion order) that `Predicate.evaluate` accepts,
  /// sorted by `SortDescriptor.compare` with ties in insertion order, then the range.
  static func reference(_ descriptor: FetchDescriptor<Item>, over items: [Item]) throws -> [Item] {
    let matching = try items.filter { try descriptor.predicate?.evaluate($0) ?? true }
    let sorted = matching.enumerated().sorted { left, right in
      for sort in descriptor.sortBy {
        switch sort.compare(left.element, right.element) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: continue
        }
      }
      return left.offset < right.offset
    }
    let start = min(descriptor.fetchOffset ?? 0, sorted.count)
    let end = descriptor.fetchLimit.map { min(sorted.count, start + $0) } ?? sorted.count
    return sorted[start..<end].map(\.element)
  }

  @Test func fetchesAgreeOnGeneratedQueries() throws {
    var generator = Generator(state: 2_024)
    let items = Self.makeItems(&generator, count: 150)
    let memory = try Store(.inMemory)
    let sqlite = try Store(.sqlite)
    for item in items {
      try memory.context.insert(item)
      try sqlite.context.insert(item)
    }
    // NB: as stored (strings in normalization form C), in insertion order.
    let stored = try memory.context.fetchAll(Item.self)
    for round in 0..<400 {
      var descriptor = FetchDescriptor<Item>(
        predicate: generator.chance(90) ? Self.predicate(&generator) : nil,
        sortBy: Self.sorts(&generator))
      descriptor.fetchLimit = generator.chance(50) ? generator.int(0...20) : nil
      descriptor.fetchOffset = generator.chance(30) ? generator.int(0...10) : nil
      let expected = try memory.context.fetch(descriptor)
      let actual = try sqlite.context.fetch(descriptor)
      let predicate = descriptor.predicate.map { "\($0)" } ?? "nil"
      let sorts = descriptor.sortBy.map { "\($0.keyPath.map { "\($0)" } ?? "?") \($0.order)" }
      let sameModels = actual == expected
      #expect(
        actual.map(\.id) == expected.map(\.id),
        "round \(round): \(predicate) sorted by \(sorts)")
      #expect(sameModels, "round \(round): the models differ")
      let reference = try Self.reference(descriptor, over: stored)
      #expect(
        expected.map(\.id) == reference.map(\.id),
        "round \(round): \(predicate) sorted by \(sorts) differs from Swift")
      #expect(expected == reference, "round \(round): the models differ from Swift's")
      #expect(try sqlite.context.fetchCount(descriptor) == expected.count)
      #expect(try memory.context.fetchCount(descriptor) == expected.count)
    }
  }

  @Test func deletesAgreeOnGeneratedPredicates() throws {
    var generator = Generator(state: 7)
    for _ in 0..<20 {
      let items = Self.makeItems(&generator, count: 40)
      let memory = try Store(.inMemory)
      let sqlite = try Store(.sqlite)
      for item in items {
        try memory.context.insert(item)
        try sqlite.context.insert(item)
      }
      let predicate = Self.predicate(&generator)
      let kept = try memory.context.fetchAll(Item.self).filter { try !predicate.evaluate($0) }
      let deleted = try memory.context.delete(Item.self, where: predicate)
      #expect(try sqlite.context.delete(Item.self, where: predicate) == deleted)
      let remaining = try sqlite.context.fetchAll(Item.self).map(\.id)
      #expect(try remaining == memory.context.fetchAll(Item.self).map(\.id))
      #expect(remaining == kept.map(\.id))
    }
  }
}
