extension Equatable {
  /// Changes the payload of one case of this enum in place, when the value is that case.
  ///
  /// ```swift
  /// state.destination?.modify(.case(Destination.State.editor)) { $0.title = "Draft" }
  /// ```
  ///
  /// When the value is another case, nothing changes and an issue is reported: the code meant
  /// to change a case that is not there (in a test, the expected state is not what it says).
  ///
  /// - Parameters:
  ///   - casePath: The case, such as `.case(Destination.State.editor)`.
  ///   - body: Changes the case's payload.
  ///   - fileID: The file of the call, for the issue reported for another case.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Throws: What `body` throws.
  public mutating func modify<Value>(
    _ casePath: CasePath<Self, Value>,
    _ body: (inout Value) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows {
    guard var value = casePath.extract(self) else {
      reportIssue(
        """
        Can't modify unrelated case: the value is '.\(enumCaseName(of: self) ?? "\(self)")', \
        not the case path's case, so nothing was changed.

        To fix, modify the case the value is, or check it with the case path's 'extract' first.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    try body(&value)
    self = casePath.embed(value)
  }
}
