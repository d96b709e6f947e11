import Loop

// MARK: - Shared state in assertions
//
// A `Shared` in the state is a reference: the state before an action and the state after it
// hold the same one, so comparing them would compare a value with itself. The store's tracker
// (installed in its dependencies) notes each root a reducer or an effect changes, with the value
// last asserted; after each action the store takes a snapshot of their values. An assertion
// then compares each side with its own shared values: the values asserted before the action
// (changed by the closure's `withLock`s: the expected side) against the snapshot taken right
// after the action (the actual side).

/// A state, with the values of the shared references in it at one moment.
struct SharedSnapshot<State> {
  var state: State
  let shared: SharedValues
}

extension TestStore {
  /// Runs the assertion closure on `snapshot`'s state; its `withLock`s change a copy of the
  /// snapshot's shared values, which `snapshot` then holds.
  func withSharedValues(
    of snapshot: inout SharedSnapshot<State>, _ update: (inout State) throws -> Void
  ) throws {
    let shared = snapshot.shared.copy()
    var state = snapshot.state
    // NB: `modify` in the closure reports an unchanged value only when checking exhaustively.
    try ModifyLocals.$isExhaustive.withValue(exhaustivity == .on) {
      try SharedAssertion.run(shared, against: shared) { try update(&state) }
    }
    snapshot = SharedSnapshot(state: state, shared: shared)
  }

  /// Whether two snapshots differ, each compared with its own shared values.
  func differ(_ expected: SharedSnapshot<State>, _ actual: SharedSnapshot<State>) -> Bool {
    SharedAssertion.run(expected.shared, against: actual.shared) {
      expected.state != actual.state
    }
  }

  /// Builds a message whose diff shows `expected`'s shared values on the `−` side and
  /// `actual`'s on the `+` side.
  func message(
    _ expected: SharedSnapshot<State>, _ actual: SharedSnapshot<State>,
    _ build: (State, State) -> String
  ) -> String {
    SharedAssertion.run(expected.shared, against: actual.shared) {
      build(expected.state, actual.state)
    }
  }

  /// The message for shared values an effect changed after the last action, or `nil` when none
  /// changed; from then on they count as seen.
  func unassertedSharedChanges() -> String? {
    guard let changes = sharedChanges.changesSinceSnapshot() else { return nil }
    sharedChanges.forgetChangesSinceSnapshot()
    let state = self.state
    // NB: the diff of the state with itself shows its shared fields, each side with its values;
    // a shared value no field of the state holds (an effect's own) is shown by itself.
    let difference =
      SharedAssertion.run(changes.asserted, against: changes.live) { Diff.lines(state, state) }
      ?? changes.live.roots.map { root in
        let lines = Diff.lines(changes.asserted[root] ?? "", changes.live[root] ?? "") ?? ""
        return root.name + ":\n" + lines.indentingLines(by: 2)
      }.joined(separator: "\n")
    return Message.unassertedSharedChange(difference)
  }
}

extension Message {
  static func unassertedSharedChange(_ difference: String) -> String {
    """
    A shared value changed after the last action, and the change was not asserted.

    \(difference.indentingLines(by: 2))

    (Expected: −, Actual: +)

    To fix, assert it with 'store.assert { $0.$value.withLock { … } }', or make the effect \
    that changes it send an action afterwards, and assert the change when receiving it.
    """
  }
}
