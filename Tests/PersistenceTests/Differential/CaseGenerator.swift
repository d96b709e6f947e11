import Foundation
import LoopTesting
import Persistence
import TestSupport

/// A small deterministic generator (SplitMix64), so that a seed replays a case.
struct Generator {
  private var random: SplitMix64

  init(state: UInt64) {
    random = SplitMix64(seed: state)
  }

  mutating func next() -> UInt64 { random.next() }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }

  mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

  /// The seed of case `index` of a run seeded with `seed`.
  static func caseSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
    var generator = Generator(state: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return generator.next()
  }
}

/// Makes ``DifferentialCase``s from a seed: small tables (sometimes large ones) of odd values,
/// and fetches, counts, updates and deletes on them.
struct CaseGenerator {
  var generator: Generator

  init(seed: UInt64) {
    generator = Generator(state: seed)
  }

  // MARK: Values

  static let integers: [Int] = [
    .min, .min + 1, -1_000, -2, -1, 0, 1, 2, 3, 7, 1_000, .max - 1, .max,
  ]
  static let reals: [Double] = [
    -0.0, 0.0, 1, -1, 0.5, -2.5, 1.0 / 3, .infinity, -.infinity, .leastNonzeroMagnitude,
    -.leastNonzeroMagnitude, .leastNormalMagnitude, Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0x1p53, 0x1p53 + 2, 0x1p63, -0x1p63,
    9_223_372_036_854_774_784, 1e300, -2.2606631148481385e-299,
  ]
  /// Strings with combining marks, other normal forms, case folds that change length, NULs,
  /// SQL wildcards and emoji.
  static let words: [String] = [
    "", "a", "A", "b", "ab", "ä", "a\u{308}", "Ä", "Äpfel", "äpfel", "APFEL", "Straße", "STRASSE",
    "strasse", "ß", "ẞ", "café", "cafe\u{301}", "e", "é", "q\u{301}", "q\u{301}x", "100%", "%", "_",
    "a_b", "x%y", "\0", "a\0b", "\0\0", "🍎", "👩‍👩‍👧", "🇩🇪", "\u{212B}", "Å", "A\u{30A}", "한국어",
    "\u{1100}\u{1161}", "가", "ﬁ", "fi", "İ", "i\u{307}", "ς", "σ", "Σ", " ", "\n", "zebra",
    "Zebra", "\u{FEFF}", "\u{10FFFF}", "x\u{1AD2}\u{20EF}", "x\u{20EF}\u{1AD2}",
  ]
  static let kinds = Kind.allCases
  static let uuidBytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF]
  static let links: [URL?] = [
    nil, URL(string: "https://example.com/a"), URL(string: "https://EXAMPLE.com/a"),
    URL(string: "https://example.com/a?b=c"), URL(string: "file:///tmp/x%20y"),
  ]

  mutating func integer() -> Int {
    generator.chance(70) ? generator.pick(Self.integers) : generator.int(-50...50)
  }

  mutating func integer64() -> Int64 {
    generator.chance(70)
      ? generator.pick([Int64.min, .min + 1, -1, 0, 1, 1 << 40, .max - 1, .max])
      : Int64(generator.int(-50...50))
  }

  /// A double; NaN (with either sign) when `nan` allows it, rarely.
  mutating func real(nan: Bool = false) -> Double {
    if nan, generator.chance(3) { return generator.chance(50) ? .nan : -.nan }
    return generator.chance(80)
      ? generator.pick(Self.reals) : Double(generator.int(-8...8)) / 4
  }

  mutating func text() -> String {
    (0..<generator.int(1...3)).map { _ in generator.pick(Self.words) }.joined()
  }

  /// A string of a megabyte: ASCII (stored as is), or "é" decomposed (stored composed).
  mutating func hugeText() -> String {
    generator.chance(50)
      ? String(repeating: "a", count: 1 << 20) + generator.pick(Self.words)
      : String(repeating: "e\u{301}", count: (1 << 20) / 3)
  }

  mutating func word() -> String { generator.pick(Self.words) }

  mutating func uuid() -> UUID {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { buffer in
      let first = generator.pick(Self.uuidBytes)
      for offset in buffer.indices {
        buffer[offset] = offset < 2 ? first : generator.pick(Self.uuidBytes)
      }
    }
    return UUID(uuid: bytes)
  }

  mutating func data() -> Data {
    Data((0..<generator.int(0...3)).map { _ in generator.pick([0, 0, 1, 0x7F, 0xFF]) })
  }

  mutating func sample(id: Int) -> Sample {
    Sample(
      id: id, text: text(), note: generator.chance(30) ? nil : text(), int: integer(),
      big: integer64(), real: real(nan: true),
      maybeReal: generator.chance(30) ? nil : real(nan: true), flag: generator.chance(50),
      maybeFlag: generator.pick([nil, true, false]),
      date: Date(timeIntervalSinceReferenceDate: real(nan: true)),
      due: generator.chance(30) ? nil : Date(timeIntervalSinceReferenceDate: real(nan: true)),
      kind: generator.pick(Self.kinds), uuid: uuid(), data: data(),
      link: generator.pick(Self.links), code: generator.chance(70) ? nil : generator.int(0...3))
  }

  // MARK: Predicates

  mutating func relation() -> Relation { generator.pick(Relation.allCases) }

  mutating func leaf() -> Condition.Leaf {
    switch generator.int(0...30) {
    case 0: return .int(relation(), integer())
    case 1: return .big(relation(), integer64())
    case 2: return .real(relation(), real(nan: true))
    case 3: return .date(relation(), Date(timeIntervalSinceReferenceDate: real(nan: true)))
    case 4:
      let relation = relation()
      let text = generator.chance(50) ? word() : text()
      // NB: Swift's `<` on strings is wrong when one is canonically equivalent to a prefix of
      // the other in another normal form: `"e\u{301}" < "é%"` is false (Swift 6.3), though
      // "e\u{301}" == "é". Storage compares in normalization form C, the order Swift
      // documents; the constants of orderings are written in it, so the reference (which runs
      // Swift's `<`) answers in that order too.
      let isOrdering = relation != .equal && relation != .notEqual
      return .text(
        relation, isOrdering ? String(decoding: text._nfcCodeUnits, as: UTF8.self) : text)
    case 5: return .uuid(relation(), uuid())
    case 6: return .maybeReal(negated: generator.chance(50), generator.chance(30) ? nil : real())
    case 7: return .note(negated: generator.chance(50), generator.chance(30) ? nil : word())
    case 8: return .maybeFlag(negated: generator.chance(50), generator.pick([nil, true, false]))
    case 9: return .code(negated: generator.chance(50), generator.chance(30) ? nil : integer())
    case 10: return .kind(generator.pick(Self.kinds))
    case 11: return .data(data())
    case 12: return .link(generator.pick(Self.links))
    case 13: return .flag
    case 14: return .textIsEmpty
    case 15: return .textContains(word())
    case 16: return .textStarts(word())
    case 17: return .foldedEquals(word().caseFolded)
    case 18: return .foldedContains(word().caseFolded)
    case 19: return .noteFoldedContains(word().caseFolded)
    case 20: return .maybeRealAbove(real())
    case 21: return .intIn((0..<generator.int(0...3)).map { _ in integer() })
    case 22: return .realIn((0..<generator.int(0...3)).map { _ in real(nan: true) })
    case 23:
      return .noteIn((0..<generator.int(0...3)).map { _ in generator.chance(30) ? nil : word() })
    case 24: return .noteOrEmpty(word())
    case 25: return .dateBeforeDue(Date(timeIntervalSinceReferenceDate: real()))
    case 26: return .textCount(relation(), generator.int(0...4))
    case 27: return .intRemainder(modulus: generator.int(1...5), generator.int(-2...2))
    case 28: return .constant(generator.chance(50))
    case 29: return .forcedNote(word())
    default: return .forcedMaybeReal(relation(), real())
    }
  }

  mutating func condition(depth: Int) -> Condition {
    guard depth > 0, generator.chance(55) else { return .leaf(leaf()) }
    switch generator.int(0...2) {
    case 0: return .and(condition(depth: depth - 1), condition(depth: depth - 1))
    case 1: return .or(condition(depth: depth - 1), condition(depth: depth - 1))
    default: return .not(condition(depth: depth - 1))
    }
  }

  /// A condition, which may throw in about one case in ten.
  mutating func someCondition() -> Condition {
    while true {
      let condition = condition(depth: 3)
      if !condition.mayThrow || generator.chance(30) { return condition }
    }
  }

  // MARK: Queries and cases

  static let limits: [Int] = [0, 1, 2, 3, 7, .max, .max - 1, .max / 2]
  static let offsets: [Int] = [0, 1, 2, 5, .max, .max - 1, .max / 2]

  mutating func query() -> Query {
    Query(
      condition: generator.chance(85) ? someCondition() : nil,
      sorts: (0..<generator.int(0...3)).map { _ in
        Query.SortKey(
          path: generator.pick(Query.SortKey.Path.allCases), reverse: generator.chance(50))
      },
      limit: generator.chance(2) ? -1 : generator.chance(50) ? generator.pick(Self.limits) : nil,
      offset: generator.chance(2) ? -2 : generator.chance(35) ? generator.pick(Self.offsets) : nil)
  }

  mutating func differentialCase() -> DifferentialCase {
    // Mostly small tables, sometimes ones large enough for the paths that keep only the first
    // rows of a sort (a limit under an eighth of the matches) and for cached sort orders.
    let rows =
      generator.chance(90) ? generator.int(0...10) : generator.int(20...120)
    var ids: [Int] = []
    var operations: [DifferentialCase.Operation] = []
    func id() -> Int {
      // Mostly new ids, sometimes one already used (a duplicate, or an update or delete that
      // finds its row), sometimes the extremes.
      if !ids.isEmpty, generator.chance(8) { return generator.pick(ids) }
      if generator.chance(3) { return generator.pick([Int.min, Int.max]) }
      return ids.count + 1
    }
    // NB: one huge string in a case now and then: each costs milliseconds wherever Swift
    // folds, normalizes, counts or compares it.
    let huge = generator.chance(1) ? generator.int(0...rows) : nil
    for row in 0..<rows {
      var sample = sample(id: id())
      if row == huge {
        if generator.chance(50) { sample.text = hugeText() } else { sample.note = hugeText() }
      }
      ids.append(sample.id)
      operations.append(.insert(sample))
    }
    var last: Query?
    for _ in 0..<generator.int(1...4) {
      switch generator.int(0...99) {
      case 0..<50:
        // NB: the same query twice in a row reads the in-memory backend's cached order.
        let query = last.flatMap { generator.chance(25) ? $0 : nil } ?? query()
        last = query
        operations.append(.fetch(query))
      case 50..<65: operations.append(.count(query()))
      case 65..<77: operations.append(.update(sample(id: id())))
      case 77..<84: operations.append(.delete(id: id()))
      case 84..<92: operations.append(.deleteWhere(someCondition()))
      default:
        let sample = sample(id: id())
        ids.append(sample.id)
        operations.append(.insert(sample))
      }
    }
    operations.append(.fetch(Query(condition: nil, sorts: [], limit: nil, offset: nil)))
    return DifferentialCase(operations: operations)
  }
}
