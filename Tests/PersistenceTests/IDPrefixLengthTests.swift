import Foundation
import Loop
import Persistence
import TestSupport
import Testing

/// `ModelContext.fetchIDPrefixLength`: the digits that tell every stored id from every other,
/// and (`of:`) one id from every other, on every backend, against the answer found by comparing
/// every pair of ids.
@Suite struct IDPrefixLengthTests {
  @Test(arguments: Backend.allCases)
  func noModelNeedsOneDigit(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    #expect(try store.context.fetchIDPrefixLength(Note.self) == 1)
  }

  @Test(arguments: Backend.allCases)
  func oneModelNeedsOneDigit(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    try store.context.insert(Note(id: Note.ID(uuid("F0000000000000000000000000000000"))))
    #expect(try store.context.fetchIDPrefixLength(Note.self) == 1)
  }

  @Test(arguments: Backend.allCases)
  func idsThatDifferOnlyInTheirLastDigitNeedAllThirtyTwo(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    for digits in ["0123456789ABCDEF0123456789ABCDE1", "0123456789ABCDEF0123456789ABCDE0"] {
      try store.context.insert(Note(id: Note.ID(uuid(digits))))
    }
    #expect(try store.context.fetchIDPrefixLength(Note.self) == 32)
  }

  @Test(arguments: Backend.allCases)
  func theLongestPrefixTwoIdsShareDecidesWhereverTheyAre(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    // NB: the closest pair (8 digits shared) is neither first nor last in id order, and was
    // not stored side by side.
    let ids = [
      "9F3A0000000000000000000000000001", "00000000000000000000000000000000",
      "9F3A1234000000000000000000000003", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
      "9F3A1234500000000000000000000004", "9F3B0000000000000000000000000002",
    ]
    for digits in ids { try store.context.insert(Note(id: Note.ID(uuid(digits)))) }
    #expect(try store.context.fetchIDPrefixLength(Note.self) == 9)
    #expect(bruteForceLength(ids) == 9)
  }

  @Test(arguments: Backend.allCases)
  func randomIdsNeedWhatComparingEveryPairFinds(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    var generator = SplitMix(seed: 27)
    // NB: ids that share their first five digits, so that the pairs share more than chance.
    let ids = (0..<300).map { _ in
      "ABCDE" + String((0..<27).map { _ in hexDigits[Int(generator.next() % 16)] })
    }
    try store.context.transaction { context in
      for digits in ids { try context.insert(Note(id: Note.ID(uuid(digits)))) }
    }
    #expect(try store.context.fetchIDPrefixLength(Note.self) == bruteForceLength(ids))
  }

  @Test(arguments: Backend.allCases)
  func aClosePairAcrossTheFallbacksPagesIsFound(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    // NB: 16,384 ids a page (the fallback's); the 16,384th and 16,385th in id order share 20
    // digits, every other pair at most 8.
    var ids = (0..<16_385).map {
      String(format: "%08X", $0 * 4_096) + String(repeating: "0", count: 24)
    }
    ids[16_384] = String(ids[16_383].prefix(20)) + "800000000000"
    try store.context.transaction { context in
      for digits in ids { try context.insert(Note(id: Note.ID(uuid(digits)))) }
    }
    #expect(try store.context.fetchIDPrefixLength(Note.self) == 21)
  }

  @Test(arguments: Backend.allCases)
  func anIdWithNoOtherStoredNeedsOneDigit(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    let id = Note.ID(uuid("0123456789ABCDEF0123456789ABCDEF"))
    #expect(try store.context.fetchIDPrefixLength(of: id) == 1)
    try store.context.insert(Note(id: id))
    #expect(try store.context.fetchIDPrefixLength(of: id) == 1)
  }

  @Test(arguments: Backend.allCases)
  func anIdNeedsOneMoreDigitThanItSharesWithItsCloserNeighbour(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    let ids = [
      "9F3A0000000000000000000000000001", "00000000000000000000000000000000",
      "9F3A1234500000000000000000000004", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
    ]
    for digits in ids { try store.context.insert(Note(id: Note.ID(uuid(digits)))) }
    // NB: the stored 9F3A12345 shares 4 digits with the id below it and 1 with the one above;
    // the unstored 9F3A1234 shares 8 with the one above it.
    let stored = Note.ID(uuid("9F3A1234500000000000000000000004"))
    #expect(try store.context.fetchIDPrefixLength(of: stored) == 5)
    let unstored = Note.ID(uuid("9F3A1234000000000000000000000003"))
    #expect(try store.context.fetchIDPrefixLength(of: unstored) == 9)
    #expect(try store.context.fetchIDPrefixLength(of: Note.ID(uuid(ids[1]))) == 1)
    #expect(try store.context.fetchIDPrefixLength(of: Note.ID(uuid(ids[3]))) == 1)
  }

  @Test(arguments: Backend.allCases)
  func randomIdsEachNeedWhatComparingWithEveryOtherFinds(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    var generator = SplitMix(seed: 5)
    // NB: ids that share their first five digits, so that neighbours share more than chance.
    let ids = (0..<200).map { _ in
      "ABCDE" + String((0..<27).map { _ in hexDigits[Int(generator.next() % 16)] })
    }
    try store.context.transaction { context in
      for digits in ids { try context.insert(Note(id: Note.ID(uuid(digits)))) }
    }
    for (index, digits) in ids.enumerated() {
      var others = ids
      others.remove(at: index)
      #expect(
        try store.context.fetchIDPrefixLength(of: Note.ID(uuid(digits)))
          == bruteForceLength(of: digits, among: others))
    }
  }

  @Test(arguments: Backend.allCases)
  func anIdsLengthFollowsInsertsUpdatesDeletionsAndRollbacks(_ backend: Backend) throws {
    let store = try Store(backend, Note.self)
    let id = Note.ID(uuid("5000000000000000000000000000000A"))
    try store.context.insert(Note(id: id))
    try store.context.insert(Note(id: Note.ID(uuid("5100000000000000000000000000000A"))))
    #expect(try store.context.fetchIDPrefixLength(of: id) == 2)
    let close = Note(id: Note.ID(uuid("5000000000000000000000000000000B")))
    try store.context.insert(close)
    #expect(try store.context.fetchIDPrefixLength(of: id) == 32)
    try store.context.delete(close)
    #expect(try store.context.fetchIDPrefixLength(of: id) == 2)
    // NB: more rows at once than the in-memory backend puts one by one into its sorted ids.
    let far = (0..<40).map { Note(id: Note.ID(uuid(String(format: "%02X", 0x80 + $0) + "00"))) }
    for note in far { try store.context.insert(note) }
    try store.context.update(Note(id: id, text: "changed"))
    #expect(try store.context.fetchIDPrefixLength(of: id) == 2)
    #expect(try store.context.fetchIDPrefixLength(of: far[1].id) == 2)
    _ = try? store.context.transaction { context -> Void in
      try context.insert(Note(id: Note.ID(uuid("500000000000000000000000000000FF"))))
      #expect(try context.fetchIDPrefixLength(of: id) == 31)
      throw RolledBack()
    }
    #expect(try store.context.fetchIDPrefixLength(of: id) == 2)
    #expect(try store.context.fetchIDPrefixLength(Note.self) == 2)
  }
}

/// A model with a typed UUID id.
private struct Note: PersistentModel, Equatable {
  typealias ID = ModelID<Note>
  var id: ID
  var text = ""

  static let schema = Schema<Note>(
    table: "notes", columns: [Column(\.id, "id"), Column(\.text, "text")])
}

extension Note {
  init(id: ID) {
    self.id = id
  }

  init(row: Row<Note>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

private let hexDigits = Array("0123456789ABCDEF")

/// The UUID of 32 hexadecimal digits (IDPrefixLengthTests and StoredIDPrefixLengthTests).
func uuid(_ digits: String) -> UUID {
  var bytes = [UInt8](repeating: 0, count: 16)
  for (offset, digit) in digits.enumerated() {
    let value = UInt8(digit.hexDigitValue ?? 0)
    bytes[offset / 2] |= offset.isMultiple(of: 2) ? value << 4 : value
  }
  return UUID(
    uuid: (
      bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
      bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
    ))
}

/// One more than the most leading digits any two of `ids` share (at least 1, at most 32), found
/// by comparing every pair.
private func bruteForceLength(_ ids: [String]) -> Int {
  var shared = 0
  for (index, lhs) in ids.enumerated() {
    for rhs in ids[(index + 1)...] {
      shared = max(shared, zip(lhs, rhs).prefix { $0 == $1 }.count)
    }
  }
  return min(shared + 1, 32)
}

/// A seeded generator: the same ids on every run.
private struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One more than the most leading digits `id` shares with any of `others` (at least 1, at most
/// 32), found by comparing it with each.
private func bruteForceLength(of id: String, among others: [String]) -> Int {
  let shared = others.map { zip(id, $0).prefix { $0 == $1 }.count }.max() ?? 0
  return min(shared + 1, 32)
}

/// Thrown to roll a transaction back.
private struct RolledBack: Error {}
