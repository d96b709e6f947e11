import Foundation
import Loop

/// The failure messages of `TestStore`: a headline, a blank line, the details, then how to fix.
enum Message {
  static func stateMismatch<State>(expected: State, actual: State) -> String {
    """
    A state change does not match expectation.

    \(difference(expected, actual))

    (Expected: −, Actual: +)
    """
  }

  static func unexpectedChange<State>(base: State, actual: State) -> String {
    """
    State was not expected to change, but a change occurred.

    \(difference(base, actual))

    (Expected: −, Actual: +)

    To fix, pass a closure that describes the change to 'send' or 'receive'.
    """
  }

  static let noChange = """
    Expected state to change, but no change occurred.

    The closure made no observable change to the state.

    To fix, remove the closure if the action is not expected to change the state.
    """

  static func assertionThrew(_ error: any Error) -> String {
    """
    The assertion closure threw an error.

        \(error)

    To fix, do not throw from the closure passed to 'send', 'receive' or 'assert'.
    """
  }

  static func mustHandleReceived<Action>(_ actions: [Action]) -> String {
    """
    Must handle \(count(actions.count, "received action")) before sending an action.

    Unhandled actions:
    \(list(actions))

    To fix, assert each with 'receive' before sending, or call 'skipReceivedActions()'.
    """
  }

  static func unhandledReceived<Action>(_ actions: [Action]) -> String {
    """
    The store received \(count(actions.count, "unexpected action")).

    Unhandled actions:
    \(list(actions))

    To fix, assert each with 'receive' before the end of the test, or call \
    'skipReceivedActions()'.
    """
  }

  static func skippedReceived<Action>(_ actions: [Action]) -> String {
    """
    Skipped receiving \(count(actions.count, "action")).

    \(list(actions))
    """
  }

  static func skippedChanges<State>(expected: State, actual: State) -> String {
    """
    A state change was not asserted.

    \(difference(expected, actual))

    (Expected: −, Actual: +)
    """
  }

  static func effectStillRunning<Action>(_ action: Action) -> String {
    """
    An effect returned for this action is still running. It must complete before the end of \
    the test.

        \(Diff.dump(action).indentingContinuationLines(by: 4))

    To fix, make the effect finish (advance a 'TestClock', finish a stream), cancel it with an \
    action that returns '.cancel(id:)', or call 'skipInFlightEffects()'.
    """
  }

  static func unexpectedAction<Action>(expected: Action, received: Action) -> String {
    """
    Received unexpected action.

    \(difference(expected, received))

    (Expected: −, Received: +)

    To fix, expect the action the effect sent, or change the effect.
    """
  }

  static func actionNotMatching<Action>(received: Action, what: String) -> String {
    """
    Received unexpected action.

        \(Diff.dump(received).indentingContinuationLines(by: 4))

    It does not match \(what) passed to 'receive'.
    """
  }

  static func nothingToReceive(expected: String) -> String {
    """
    Expected to receive an action, but received none.

    Expected:
        \(expected.indentingContinuationLines(by: 4))

    No effect is running, so no action can arrive.

    To fix, check that the action you sent returns an effect that sends this action.
    """
  }

  static func receiveTimedOut<Origin>(
    expected: String, timeout: Duration, inFlight: [Origin]
  ) -> String where Origin: OriginDescribing {
    """
    Expected to receive an action, but received none after \(seconds(timeout)).

    Expected:
        \(expected.indentingContinuationLines(by: 4))

    Effects still running, by the action that started them:
    \(inFlight.map { "  • \(Diff.dump($0.actionValue).indentingContinuationLines(by: 4)) (\($0.location))" }.joined(separator: "\n"))

    To fix, advance the 'TestClock' the effect waits on, or pass a longer 'timeout'.
    """
  }

  static func sentToDismissedStore<Action>(_ action: Action) -> String {
    """
    Can't send action to dismissed test store.

        \(Diff.dump(action).indentingContinuationLines(by: 4))

    The feature dismissed itself (its effect called 'dismiss'), so it takes no more actions.

    To fix, end the test at the dismissal, or check 'isDismissed' instead of sending.
    """
  }

  static func nothingToSkip(_ what: String) -> String {
    """
    There were no \(what) to skip.

    To fix, remove the call, or pass 'strict: false' where there may be none.
    """
  }

  static func taskStillRunning(timeout: Duration) -> String {
    """
    Expected the task to finish, but it is still running after \(seconds(timeout)).

    To fix, make its effects finish (advance a 'TestClock'), or cancel the task.
    """
  }

  // MARK: Formatting

  private static func difference<Value>(_ old: Value, _ new: Value) -> String {
    Diff.lines(old, new)?.indentingLines(by: 2) ?? noVisibleDifference
  }

  private static let noVisibleDifference = """
    (No visible difference: the values differ in a way their descriptions do not show, \
    such as a reference's identity or a custom '=='.)
    """

  private static func list<Action>(_ actions: [Action]) -> String {
    actions.map { "  • \(Diff.dump($0).indentingContinuationLines(by: 4))" }.joined(separator: "\n")
  }

  private static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  private static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    if value == 1 { return "1 second" }
    return value.rounded() == value ? "\(Int(value)) seconds" : "\(value) seconds"
  }

}

/// An effect's origin as the messages show it.
protocol OriginDescribing {
  var actionValue: Any { get }
  var location: IssueLocation { get }
}

extension TestStore.Origin: OriginDescribing {
  var actionValue: Any { action }
}
