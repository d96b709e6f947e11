/// Marks optional child state as presented: a child that appears, runs while it is there, and
/// goes away (with its effects) when it is dismissed.
///
/// ```swift
/// struct Links: Reducer {
///   struct State: Equatable {
///     @Presents var editor: LinkEditor.State?
///   }
///   enum Action {
///     case addTapped
///     case editor(PresentationAction<LinkEditor.Action>)
///   }
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       if case .addTapped = action { state.editor = LinkEditor.State() }
///       return .none
///     }
///     .ifLet(\.$editor, action: .case(Action.editor)) { LinkEditor() }
///   }
/// }
/// ```
///
/// Read and write the child as the optional it wraps (`state.editor`); pass the projection
/// (`\.$editor`) to `ifLet`. Setting it to `nil`, or the child closing itself with the `dismiss`
/// dependency, cancels the child's effects.
///
/// NB: write `@Presents var editor: LinkEditor.State? = nil` for a memberwise initializer that
/// takes the child's state; without the `= nil` it takes the wrapper.
@propertyWrapper
public struct Presents<State> {
  /// The presented child's state, or `nil` when nothing is presented.
  public var wrappedValue: State?

  /// Presents `wrappedValue`, or nothing.
  public init(wrappedValue: State? = nil) {
    self.wrappedValue = wrappedValue
  }

  /// The wrapper itself, for `ifLet(\.$child, action:then:)`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
    _modify { yield &self }
  }
}

extension Presents: Equatable where State: Equatable {}

extension Presents: Hashable where State: Hashable {}

extension Presents: Sendable where State: Sendable {}

/// Presented state, seen through the wrapper, for the state diff.
package protocol PresentedState {
  /// The wrapped optional, as `Any`.
  var presentedValue: Any { get }
}

extension Presents: PresentedState {
  package var presentedValue: Any { wrappedValue as Any }
}
