/// Marks optional child state as presented: a child that appears, runs while it is there, and
/// goes away (with its effects) when it is dismissed.
///
/// ```swift
/// struct Links: Reducer {
///   struct State: Equatable {
///     @Presents var editor: LinkEditor.State?
///   }
///   enum Action {
///     case addSubmitted
///     case editor(PresentationAction<LinkEditor.Action>)
///   }
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       if case .addSubmitted = action { state.editor = LinkEditor.State() }
///       return .none
///     }
///     .ifLet(\.$editor, action: .case(Action.editor)) { LinkEditor() }
///   }
/// }
/// ```
///
/// Read and write the child as the optional it wraps (`state.editor`); pass the projection
/// (`\.$editor`) to `ifLet`. Setting it to `nil`, or the child closing itself with the `dismiss`
/// dependency, cancels the child's effects; so does setting it to `nil` from outside the
/// `ifLet` (a sibling reducer, say), on the next action through the `ifLet`, because the wrapper
/// remembers which child it presented.
///
/// The child is stored in a box shared by copies until one changes, so a feature can present
/// itself (`@Presents var child: State?` inside `State`), and two copies of one presentation
/// compare equal without comparing the child.
///
/// NB: write `@Presents var editor: LinkEditor.State? = nil` for a memberwise initializer that
/// takes the child's state; without the `= nil` it takes the wrapper.
@propertyWrapper
public struct Presents<State> {
  // NB: the box and the accessors are inlinable, so a feature reading its presented child
  // (every command reads each feature's error messages through it) does not look up the
  // generic box's metadata on each read.
  @usableFromInline
  final class Storage: @unchecked Sendable {
    // NB: @unchecked: a box is changed only through a wrapper that holds the only reference to
    // it (copy on write), so it is never changed where another copy can see it.
    @usableFromInline var state: State?

    @usableFromInline
    init(_ state: State?) {
      self.state = state
    }
  }

  @usableFromInline var storage: Storage

  /// The identity of the child whose effects may be running, kept by the presenting `ifLet`
  /// (see `PresentationReducer`); not part of the state's value.
  @usableFromInline package var presentedID: PresentationEffectID?

  /// How many times a child was set through ``wrappedValue``'s setter (presented, replaced or
  /// dismissed), as opposed to changed in place; not part of the state's value.
  ///
  /// NB: an alert has no identity, so `ifLet` tells "the parent presented another alert in
  /// answer to this one" from "the parent left the answered alert alone" by this count, which
  /// replays the same in a recording, where a random id would not.
  @usableFromInline package var generation: UInt = 0

  /// Presents `wrappedValue`, or nothing.
  public init(wrappedValue: State? = nil) {
    self.storage = Storage(wrappedValue)
  }

  /// The presented child's state, or `nil` when nothing is presented.
  @inlinable
  public var wrappedValue: State? {
    get { storage.state }
    set {
      generation &+= 1
      if isKnownUniquelyReferenced(&storage) {
        storage.state = newValue
      } else {
        storage = Storage(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.state) }
      yield &storage.state
    }
  }

  /// The wrapper itself, for `ifLet(\.$child, action:then:)`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
    _modify { yield &self }
  }

  /// The presented child's state when it is the case `casePath` of an enum of destinations,
  /// else `nil`; set through it to change that case's state in place.
  ///
  /// ```swift
  /// state.$destination[case: .case(Destination.State.editor)]?.title = "Draft"
  /// ```
  ///
  /// Changing it while another case (or nothing) is presented changes nothing and reports an
  /// issue; setting it to `nil` dismisses the child.
  ///
  /// - Parameters:
  ///   - casePath: The destination's case, such as `.case(Destination.State.editor)`.
  ///   - fileID: The file of the access, for the issue reported for another case.
  ///   - filePath: The file path of the access.
  ///   - line: The line of the access.
  ///   - column: The column of the access.
  public subscript<Case>(
    case casePath: CasePath<State, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    get { wrappedValue.flatMap(casePath.extract) }
    _modify {
      var value = wrappedValue.flatMap(casePath.extract)
      let isPresented = value != nil
      yield &value
      guard isPresented else {
        reportUnrelatedCase(
          at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
      }
      // NB: a change in place, not a new presentation (see `generation`).
      let generation = self.generation
      wrappedValue = value.map(casePath.embed)
      self.generation = generation
    }
  }

  private func reportUnrelatedCase(at location: IssueLocation) {
    let presented = wrappedValue.map { "'.\(enumCaseName(of: $0) ?? "\($0)")'" } ?? "nothing"
    IssueReporting.current.reportIssue(
      """
      Can't modify unrelated case: the presented state is \(presented), not the case path's \
      case, so nothing was changed.

      To fix, present that case first ('state.destination = .…'), or modify the case that is \
      presented.
      """,
      at: location)
  }
}

extension Presents: Equatable where State: Equatable {
  /// Whether both present equal children (or nothing); two copies of one presentation are equal
  /// without comparing the child.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension Presents: Hashable where State: Hashable {
  /// Hashes the presented child.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

extension Presents: Sendable where State: Sendable {}

extension Presents: CustomReflectable {
  /// The presented child, as the optional it is.
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue as Any) }
}

/// Presented state, seen through the wrapper, for the state diff.
package protocol PresentedState {
  /// The wrapped optional, as `Any`.
  var presentedValue: Any { get }
}

extension Presents: PresentedState {
  package var presentedValue: Any { wrappedValue as Any }
}
