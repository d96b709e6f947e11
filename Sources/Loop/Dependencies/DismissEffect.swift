/// Closes the presented child whose effect calls it: the `\.dismiss` dependency.
///
/// ```swift
/// struct LinkEditor: Reducer {
///   @Dependency(\.dismiss) var dismiss
///
///   func reduce(into state: inout State, action: Action) -> Effect<Action> {
///     switch action {
///     case .cancelSubmitted:
///       return .run { _ in await dismiss() }
///     …
/// ```
///
/// Inside the effects of a child presented with `@Presents` and `ifLet(\.$child, action:then:)`
/// it sends the parent the child's `PresentationAction.dismiss`, which closes the child and
/// cancels its effects. Anywhere else it closes nothing and reports an issue naming the place it
/// was called from. A test of the child alone can give it a closure of its own:
///
/// ```swift
/// let store = TestStore(initialState: LinkEditor.State()) { LinkEditor() } withDependencies: {
///   $0.dismiss = DismissEffect { dismissed.append(true) }
/// }
/// ```
public struct DismissEffect: Sendable {
  private let dismiss: (@MainActor @Sendable () -> Void)?

  /// A dismiss effect that, outside a presented child, calls `dismiss` (for testing a child
  /// alone).
  public init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = dismiss
  }

  init() {
    self.dismiss = nil
  }

  /// Calls the closure this was created with, if any, and reports nothing otherwise: for a test
  /// store, which closes a root feature after a test's own dismiss effect.
  @MainActor
  package func callOverride() {
    dismiss?()
  }

  /// The dismissal of the presented child whose effect runs, bound by its `ifLet`.
  ///
  /// NB: a task-local of a struct, not of an optional `@MainActor` closure: with the closure
  /// type, the release build's specialization of `TaskLocal.withValue` passed no metadata for
  /// the value and crashed in `swift_task_localValuePush` (Swift 6.3, Linux).
  @TaskLocal static var presented: DismissEffect?

  /// Closes the presented child this effect belongs to.
  ///
  /// - Parameters:
  ///   - fileID: The file of the call, for the issue reported outside a presented child.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  @MainActor
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    // NB: the presentation comes first, as an `ifLet` nearer the child than a test's override.
    if let presented = Self.presented?.dismiss {
      presented()
    } else if let dismiss {
      dismiss()
    } else {
      reportIssue(
        """
        'dismiss' was called at '\(fileID):\(line)' outside a presented child.

        It closes a child presented with '@Presents' and 'ifLet(\\.$child, action:then:)' when \
        one of that child's effects calls it; here there is none, so nothing was closed.

        To fix, call 'dismiss' only from a presented child's effects, or give the test of a \
        child alone a 'DismissEffect' of its own: '$0.dismiss = DismissEffect { … }'.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
    }
  }
}

extension DismissEffect: DependencyKey {
  /// Closes the presented child, or reports an issue outside one.
  public static var liveValue: DismissEffect { DismissEffect() }

  /// Closes the presented child, or reports an issue outside one.
  public static var testValue: DismissEffect { DismissEffect() }
}

extension DependencyValues {
  /// Closes the presented child whose effect calls it (see `DismissEffect`).
  public var dismiss: DismissEffect {
    get { self[DismissEffect.self] }
    set { self[DismissEffect.self] = newValue }
  }
}
