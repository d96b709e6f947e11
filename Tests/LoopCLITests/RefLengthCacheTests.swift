import Foundation
import Loop
import Synchronization
import Testing

@testable import LoopCLI

@Suite struct ListChangeTests {
  private func change(_ old: [Int], _ new: [Int]) -> ListChange {
    ListChange(from: old, to: new)
  }

  @Test(arguments: [
    ([1, 2, 3], [1, 2, 3], ListChange.unchanged),
    ([], [], .unchanged),
    ([1, 2, 3], [0, 1, 2, 3], .inserted(at: 0)),
    ([1, 2, 3], [1, 9, 2, 3], .inserted(at: 1)),
    ([1, 2, 3], [1, 2, 3, 4], .inserted(at: 3)),
    ([], [7], .inserted(at: 0)),
    ([1, 2, 3], [2, 3], .removed(at: 0)),
    ([1, 2, 3], [1, 3], .removed(at: 1)),
    ([1, 2, 3], [1, 2], .removed(at: 2)),
    ([1, 2, 3], [3, 2, 1], .other),
    ([1, 2, 3], [1, 2, 4], .other),
    ([1, 2, 3], [1, 9, 3, 2], .other),
    ([1, 2, 3], [3, 1], .other),
    ([1, 2, 3], [1, 2, 3, 4, 5], .other),
  ])
  func comparesIDsInOrder(old: [Int], new: [Int], expected: ListChange) {
    #expect(change(old, new) == expected)
  }

  private struct Item: Identifiable, Equatable {
    var id: Int
    var name: String
  }

  /// The element of `after` that ``ListChange/firstAdded(to:in:)`` finds, from the ids.
  private func firstAdded(to before: [Item], in after: [Item]) -> Item? {
    ListChange.firstAdded(to: before.map(\.id), in: after.map(\.id)).map { after[$0] }
  }

  @Test func firstAddedIsTheInsertedElement() {
    let before = [Item(id: 1, name: "a"), Item(id: 3, name: "c")]
    let after = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
    #expect(firstAdded(to: before, in: after) == Item(id: 2, name: "b"))
  }

  @Test func firstAddedFindsTheFirstNewIDAfterAnyOtherChange() {
    let before = [Item(id: 1, name: "a"), Item(id: 3, name: "c")]
    let after = [Item(id: 3, name: "c"), Item(id: 5, name: "e"), Item(id: 4, name: "d")]
    #expect(firstAdded(to: before, in: after) == Item(id: 5, name: "e"))
    #expect(firstAdded(to: before, in: before) == nil)
  }
}

@Suite struct RefLengthCacheTests {
  /// Ids sharing their first digits in a few patterns, so lengths above 7 come up.
  private static func id(_ generator: inout UInt64) -> UUID {
    generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let shared = Int(generator >> 60) % 12
    let digits = (0..<32).map { index -> Character in
      let value = index < shared ? 10 : Int((generator >> UInt64(index * 2 % 64)) & 0xF)
      return Character(String(value, radix: 16))
    }
    var text = String(digits)
    for offset in [8, 13, 18, 23] {
      text.insert("-", at: text.index(text.startIndex, offsetBy: offset))
    }
    return UUID(uuidString: text) ?? UUID()
  }

  /// What the digits of sorted ids need, computed on strings.
  static func expectedLength(_ ids: [UUID]) -> Int {
    let sorted = ids.map(Ref.digits(of:)).sorted()
    var length = Ref.minimumLength
    for (previous, next) in zip(sorted, sorted.dropFirst()) {
      length = max(length, zip(previous, next).prefix { $0 == $1 }.count + 1)
    }
    return min(length, 32)
  }

  @Test func lengthIsTheDigitsEveryIDNeeds() {
    var generator: UInt64 = 11
    let ids = (0..<300).map { _ in Self.id(&generator) }
    #expect(Ref.length(for: ids) == Self.expectedLength(ids))
    #expect(Ref.length(for: ids) > Ref.minimumLength)
    #expect(Ref.length(for: [ids[0], ids[0]]) == 32)
  }

  @Test func cachedLengthFollowsInsertionsRemovalsAndReplacements() {
    var generator: UInt64 = 5
    var cache = RefLengthCache()
    var list: [UUID] = []
    var lengths: Set<Int> = []
    for step in 0..<400 {
      switch step % 10 {
      case 0..<6:
        let index = Int(generator % UInt64(list.count + 1))
        list.insert(Self.id(&generator), at: index)
      case 6, 7:
        if !list.isEmpty { list.remove(at: Int(generator % UInt64(list.count))) }
      case 8:
        list.reverse()
      default:
        break
      }
      let length = cache.length(ofIDs: list)
      #expect(length == Self.expectedLength(list), "step \(step)")
      lengths.insert(length)
    }
    #expect(lengths.count > 2)
  }
}

/// The refs `habit add` and `ledger add` print, as the lists grow.
@MainActor
@Suite struct AddedRefTests {
  /// Ids whose first digits are often the same, so that refs grow past 7 digits.
  private static func clusteredUUIDs() -> UUIDGenerator {
    let state = Mutex<UInt64>(3)
    return UUIDGenerator {
      state.withLock { value in
        var digits = ""
        for _ in 0..<4 {
          value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          digits += String(value >> 32, radix: 16).leftPadded(to: 8)
        }
        let shared = Int(value >> 60) % 10
        let text = String(repeating: "c", count: shared) + digits.dropFirst(shared)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
          text.dropFirst(range.lowerBound).prefix(range.count)
        }
        return UUID(uuidString: parts.joined(separator: "-")) ?? UUID()
      }
    }
  }

  @Test func eachAddPrintsTheRefEveryLoadedIDNeeds() async throws {
    var environment = try transcriptEnvironment()
    environment.uuid = Self.clusteredUUIDs()
    let output = Captured()
    let session = Session(
      environment: environment,
      console: Console(writeOutput: { output.append($0) }, writeError: { output.append($0) }),
      configuration: Session.Configuration(mode: .script(name: "refs")))
    let lines = (0..<240).map { index in
      index % 2 == 0
        ? "habit add \"Habit \(index)\"" : "ledger add expense 1.25 \"Item \(index)\""
    }
    #expect(await session.run(ScriptedLineReader(lines: lines)) == 0)

    let habits = session.state.habits.habits.elements.map(\.habit)
    let habitIDs = Dictionary(uniqueKeysWithValues: habits.map { ($0.name, $0.id.rawValue) })
    let items = session.state.ledger.transactions.elements
    let itemIDs = Dictionary(uniqueKeysWithValues: items.map { ($0.memo, $0.id.rawValue) })
    var expected: [String] = []
    var added: [UUID] = []
    for index in 0..<240 {
      let name = index % 2 == 0 ? "Habit \(index)" : "Item \(index)"
      let id = try #require(index % 2 == 0 ? habitIDs[name] : itemIDs[name])
      added.append(id)
      let sameNoun = added.enumerated().filter { $0.offset % 2 == index % 2 }.map(\.element)
      let ref = Ref.short(id, length: RefLengthCacheTests.expectedLength(sameNoun))
      expected.append(
        index % 2 == 0
          ? "Added habit '\(name)' (\(ref))."
          : "Added expense 1.25 '\(name)' on 2025-03-15 (\(ref)).")
    }
    #expect(output.value == expected.joined(separator: "\n") + "\n")
    #expect(Ref.length(for: habits.map(\.id.rawValue)) > Ref.minimumLength)
  }
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}
