extension StackState {
  /// The element with the given id when it is the case `casePath` of an enum of screens, else
  /// `nil`; set through it to change that case's state in place.
  ///
  /// ```swift
  /// await store.send(.path(.element(id: 0, action: .detail(.titleChanged("Draft"))))) {
  ///   $0.path[id: 0, case: .case(Path.State.detail)]?.title = "Draft"
  /// }
  /// ```
  ///
  /// Setting a value while the element is another case, or the stack holds no element with that
  /// id, changes nothing and reports an issue; setting it to `nil` removes the element.
  ///
  /// - Parameters:
  ///   - id: The element's id.
  ///   - casePath: The screen's case, such as `.case(Path.State.detail)`.
  ///   - fileID: The file of the access, for the issue reported for another case.
  ///   - filePath: The file path of the access.
  ///   - line: The line of the access.
  ///   - column: The column of the access.
  /// - Complexity: O(1) to read or change, O(*n*) to remove.
  public subscript<Case>(
    id id: StackElementID,
    case casePath: CasePath<Element, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    get { self[id: id].flatMap(casePath.extract) }
    set {
      guard let newValue else {
        self[id: id] = nil
        return
      }
      guard let element = self[id: id], casePath.extract(element) != nil else {
        let found = self[id: id].map { "'.\(enumCaseName(of: $0) ?? "\($0)")'" } ?? "no element"
        IssueReporting.current.reportIssue(
          """
          Can't modify unrelated case: the stack holds \(found) under id \(id), not the case \
          path's case, so nothing was changed.

          To fix, push that case first, or modify the case the element is.
          """,
          at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
      }
      self[id: id] = casePath.embed(newValue)
    }
  }
}
