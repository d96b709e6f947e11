import Foundation
import Testing

@testable import LoopCLI

@Suite struct ListChangeTests {
  private func change(_ old: [Int], _ new: [Int]) -> ListChange {
    ListChange(from: old, to: new, oldID: { $0 }, newID: { $0 })
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

  @Test func firstAddedIsTheInsertedElement() {
    let before = [Item(id: 1, name: "a"), Item(id: 3, name: "c")]
    let after = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
    #expect(ListChange.firstAdded(to: before, in: after) == Item(id: 2, name: "b"))
  }

  @Test func firstAddedFindsTheFirstNewIDAfterAnyOtherChange() {
    let before = [Item(id: 1, name: "a"), Item(id: 3, name: "c")]
    let after = [Item(id: 3, name: "c"), Item(id: 5, name: "e"), Item(id: 4, name: "d")]
    #expect(ListChange.firstAdded(to: before, in: after) == Item(id: 5, name: "e"))
    #expect(ListChange.firstAdded(to: before, in: before) == nil)
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
  private static func expectedLength(_ ids: [UUID]) -> Int {
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
      let length = cache.length(of: list, id: { $0 })
      #expect(length == Self.expectedLength(list), "step \(step)")
      lengths.insert(length)
    }
    #expect(lengths.count > 2)
  }
}
