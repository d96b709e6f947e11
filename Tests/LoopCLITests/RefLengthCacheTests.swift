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
}
