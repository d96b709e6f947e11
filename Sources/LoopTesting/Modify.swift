import Loop

/// How the assertion closure that calls ``modify(_:_:fileID:filePath:line:column:)`` checks.
enum ModifyLocals {
  /// Whether an unchanged value is a failure: in an exhaustive test store's closures (and
  /// outside a test store), yes; under `exhaustivity = .off`, where the closure starts from the
  /// actual state and restates what it checks, no.
  @TaskLocal static var isExhaustive = true
}

/// Changes an optional value in place, failing the test when it is `nil`, or when the closure
/// leaves an `Equatable` value unchanged: TCA's `XCTModify`.
///
/// In an assertion closure, it says "the child is there, and changed like this":
///
/// ```swift
/// await store.send(.child(.incrementSubmitted)) {
///   modify(&$0.child) { $0.count = 1 }
/// }
/// ```
///
/// Under `exhaustivity = .off` an unchanged value passes: the closure starts from the actual
/// state, so restating a value already there is how it checks it.
///
/// - Parameters:
///   - optional: The value to change.
///   - body: Changes the unwrapped value.
///   - fileID: The file of the call, for the failure.
///   - filePath: The file path of the call.
///   - line: The line of the call.
///   - column: The column of the call.
/// - Throws: What `body` throws.
public func modify<Wrapped>(
  _ optional: inout Wrapped?,
  _ body: (inout Wrapped) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) rethrows {
  let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  guard var wrapped = optional else {
    IssueReporting.current.reportIssue(
      """
      'modify' failed: expected a non-nil value of type '\(Wrapped.self)', but it was nil.

      To fix, check that the state is present first, or set it instead of modifying it.
      """,
      at: location)
    return
  }
  let before = wrapped
  try body(&wrapped)
  reportIfUnchanged(before, wrapped, at: location)
  optional = wrapped
}

/// Changes the payload of one case of an enum in place, failing the test when the value is
/// another case, or when the closure leaves an `Equatable` payload unchanged: TCA's
/// `XCTModify(_:case:_:)`.
///
/// ```swift
/// await store.send(.path(.element(id: 0, action: .counter(.incrementSubmitted)))) {
///   modify(&$0.path[id: 0], case: .case(Path.State.counter)) { $0.count = 1 }
/// }
/// ```
///
/// - Parameters:
///   - root: The enum value (or an optional one) to change.
///   - casePath: The case, such as `.case(Path.State.counter)`.
///   - body: Changes the case's payload.
///   - fileID: The file of the call, for the failure.
///   - filePath: The file path of the call.
///   - line: The line of the call.
///   - column: The column of the call.
/// - Throws: What `body` throws.
public func modify<Root, Case>(
  _ root: inout Root?,
  case casePath: CasePath<Root, Case>,
  _ body: (inout Case) throws -> Void,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) rethrows {
  var payload = root.flatMap(casePath.extract)
  guard payload != nil else {
    IssueReporting.current.reportIssue(
      """
      'modify' failed: expected the case holding '\(Case.self)', but the value is \
      \(root.map { "'\($0)'" } ?? "nil").

      To fix, modify the case the value is, or set the value instead of modifying it.
      """,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    return
  }
  // NB: the optional form checks that the closure changed the payload.
  try modify(&payload, body, fileID: fileID, filePath: filePath, line: line, column: column)
  root = payload.map(casePath.embed)
}

/// Reports that `after` equals `before`, when the value is `Equatable` and the closure runs
/// exhaustively.
private func reportIfUnchanged<Value>(_ before: Any, _ after: Value, at location: IssueLocation) {
  guard ModifyLocals.isExhaustive, let after = after as? any Equatable,
    isEqual(after, before)
  else { return }
  IssueReporting.current.reportIssue(
    """
    'modify' failed: expected the '\(Value.self)' value to be modified, but it was unchanged.

    To fix, remove the 'modify' call, or change the value in its closure.
    """,
    at: location)
}

/// Whether `rhs` is a value of `lhs`'s type equal to it.
private func isEqual<Value: Equatable>(_ lhs: Value, _ rhs: Any) -> Bool {
  (rhs as? Value).map { $0 == lhs } ?? false
}
