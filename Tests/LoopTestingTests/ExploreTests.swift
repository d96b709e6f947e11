import Foundation
import LoopTesting
import Testing

/// A combination lock with a planted bug: the fifth digit of its code, entered in order, breaks
/// it. Any other digit is ignored; a reset starts over.
struct Lock: Reducer {
  struct State: Equatable {
    var progress = 0
    var isBroken = false
  }

  enum Action: Equatable {
    case digitSubmitted(Int)
    case resetSubmitted
  }

  static let code = [3, 1, 4, 1, 2]

  /// Whether the lock works: the exploration's invariant.
  static func isIntact(_ state: State) -> Bool { !state.isBroken }

  /// Whether the planted bug is there; a correct lock opens without breaking.
  var isBuggy = true

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .digitSubmitted(let digit):
      guard state.progress < Self.code.count, digit == Self.code[state.progress] else {
        return .none
      }
      state.progress += 1
      if state.progress == Self.code.count, isBuggy { state.isBroken = true }
      return .none
    case .resetSubmitted:
      state.progress = 0
      return .none
    }
  }

  /// Digits 0 to 4, and now and then a reset.
  static var actions: ActionGenerator<State, Action> {
    ActionGenerator(
      .case(weight: 12) { random, _ in .digitSubmitted(random.int(in: 0...4)) },
      .always(.resetSubmitted)
    )
  }
}

@MainActor @Suite struct ExploreTests {
  @Test func scratch() async {
    let issues = IssueCollector()
    let result = await withIssueReporter(issues) {
      await TestStore.explore(
        initialState: { Lock.State() }, reducer: { Lock() }, actions: Lock.actions, seed: 1,
        invariantName: "Lock.isIntact", invariant: Lock.isIntact)
    }
    print(result)
    print(issues.messages.joined(separator: "\n----\n"))
  }
}
