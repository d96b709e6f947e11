import Loop
import Testing

/// A store that adds to two stacks, for the ids a store gives out.
private struct TwoStacks: Reducer {
  struct State: Equatable {
    var left = StackState<String>()
    var right = StackState<String>()
  }
  enum Action: Equatable {
    case pushLeft(String)
    case pushRight(String)
    case replaceLeft([String])
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .pushLeft(let value): state.left.append(value)
    case .pushRight(let value): state.right.append(value)
    case .replaceLeft(let values): state.left = StackState(values)
    }
    return .none
  }
}

@MainActor
@Suite struct StackStateTests {
  @Test func elementsAddedOutsideAStoreAreNumberedFromZero() {
    var stack = StackState<String>()
    stack.append("a")
    stack.append(contentsOf: ["b", "c"])
    #expect(stack.ids == [0, 1, 2])
    #expect(Array(stack) == ["a", "b", "c"])
    #expect(stack[id: 1] == "b")
  }

  @Test func idsAreNeverReusedAfterARemoval() {
    var stack = StackState(["a", "b"])
    stack.removeLast()
    stack.append("c")
    stack.removeAll()
    stack.append("d")
    #expect(stack.ids == [3])
    #expect(stack[id: 0] == nil)
  }

  @Test func anElementInsertedBelowTheTopGetsANewID() {
    var stack = StackState(["a", "c"])
    stack.insert("b", at: 1)
    #expect(Array(stack) == ["a", "b", "c"])
    #expect(stack.ids == [0, 2, 1])
    stack.replaceSubrange(0..<2, with: ["z"])
    #expect(Array(stack) == ["z", "c"])
    #expect(stack.ids == [3, 1])
  }

  @Test func removingAndFilteringKeepTheIDsOfTheElementsLeft() {
    var stack = StackState(["a", "bb", "c", "dd"])
    #expect(stack.filter { $0.count == 2 }.ids == [1, 3])
    stack.removeAll { $0.count == 1 }
    #expect(Array(stack) == ["bb", "dd"])
    #expect(stack.ids == [1, 3])
    stack.append("e")
    #expect(stack.ids == [1, 3, 4])
  }

  @Test func theIDSubscriptReplacesAnElementInPlace() {
    var stack = StackState(["a", "b", "c"])
    stack[id: 1] = "B"
    stack[id: 2]?.append("!")
    #expect(Array(stack) == ["a", "B", "c!"])
    #expect(stack.ids == [0, 1, 2])
  }

  @Test func settingNilThroughTheIDSubscriptRemovesThatElementAlone() {
    var stack = StackState(["a", "b", "c"])
    stack[id: 1] = nil
    stack[id: 7] = nil
    #expect(Array(stack) == ["a", "c"])
    #expect(stack.ids == [0, 2])
  }

  @Test func settingANewIDAddsTheElementAtTheTopAndLaterIDsFollowIt() {
    var stack = StackState(["a"])
    stack[id: 5] = "f"
    stack.append("g")
    #expect(Array(stack) == ["a", "f", "g"])
    #expect(stack.ids == [0, 5, 6])
  }

  @Test func popFromRemovesTheElementAndEveryElementAboveIt() {
    var stack = StackState(["a", "b", "c", "d"])
    stack.pop(from: 1)
    #expect(Array(stack) == ["a"])
    #expect(stack.ids == [0])
  }

  @Test func popToKeepsTheElementAndRemovesEveryElementAboveIt() {
    var stack = StackState(["a", "b", "c", "d"])
    stack.pop(to: 1)
    #expect(Array(stack) == ["a", "b"])
    #expect(stack.ids == [0, 1])
  }

  @Test func poppingAnIDTheStackDoesNotHoldChangesNothing() {
    var stack = StackState(["a", "b"])
    stack.pop(from: 9)
    stack.pop(to: 9)
    #expect(stack == StackState(["a", "b"]))
  }

  @Test func stacksAreEqualWhenTheyHoldEqualElementsUnderTheSameIDs() {
    var shifted = StackState(["x"])
    shifted.removeAll()
    shifted.append("a")
    #expect(StackState(["a", "b"]) == StackState(["a", "b"]))
    #expect(StackState(["a", "b"]) != StackState(["a", "c"]))
    #expect(shifted != StackState(["a"]))
    #expect(Array(shifted) == Array(StackState(["a"])))
  }

  @Test func equalStacksHashAlike() {
    #expect(StackState(["a", "b"]).hashValue == StackState(["a", "b"]).hashValue)
    #expect(Set([StackState(["a"]), StackState(["a"]), StackState(["b"])]).count == 2)
  }

  @Test func aStoreNumbersTheElementsOfAllItsStacksInOneCount() {
    let store = Store(initialState: TwoStacks.State()) { TwoStacks() }
    store.send(.pushLeft("a"))
    store.send(.pushRight("b"))
    store.send(.pushLeft("c"))
    #expect(store.state.left.ids == [0, 2])
    #expect(store.state.right.ids == [1])
  }

  @Test func aStackBuiltInAReducerDrawsNewIDs() {
    let store = Store(initialState: TwoStacks.State()) { TwoStacks() }
    store.send(.pushLeft("a"))
    store.send(.replaceLeft(["b", "c"]))
    #expect(store.state.left.ids == [1, 2])
  }

  @Test func aStoreContinuesAfterTheHighestIDOfAStackBuiltOutsideIt() {
    let store = Store(initialState: TwoStacks.State(left: StackState(["a", "b"]))) {
      TwoStacks()
    }
    store.send(.pushLeft("c"))
    store.send(.pushRight("d"))
    #expect(store.state.left.ids == [0, 1, 2])
    #expect(store.state.right.ids == [3])
  }

  @Test func eachStoreCountsItsOwnIDs() {
    let first = Store(initialState: TwoStacks.State()) { TwoStacks() }
    let second = Store(initialState: TwoStacks.State()) { TwoStacks() }
    first.send(.pushLeft("a"))
    first.send(.pushLeft("b"))
    second.send(.pushLeft("c"))
    #expect(first.state.left.ids == [0, 1])
    #expect(second.state.left.ids == [0])
  }

  @Test func anIDIsWrittenAsAnIntegerLiteralAndShownWithAHash() {
    let id: StackElementID = 3
    #expect(id == 3)
    #expect(id != 4)
    #expect(id.description == "#3")
    #expect(Set<StackElementID>([0, 0, 1]).count == 2)
  }

  @Test func aStackDumpsEachElementUnderItsID() {
    #expect(
      Diff.dump(TwoStacks.State(left: StackState(["a", "b"])))
        == """
        TwoStacks.State(
          left: [
            #0: "a",
            #1: "b"
          ],
          right: []
        )
        """)
  }

  @Test func aStackDiffMatchesElementsByID() {
    var after = StackState(["a", "b"])
    after[id: 1] = "c"
    #expect(
      Diff.lines(StackState(["a", "b"]), after)
        == """
          [
            #0: "a",
        −   #1: "b"
        +   #1: "c"
          ]
        """)
  }
}
