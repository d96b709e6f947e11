extension Effect {
  /// This effect, run as the effects of the child `id` of the reducer that returns it.
  ///
  /// A reducer that runs children on parts of its state, and removes them (`ifLet`, `forEach`,
  /// presentation, a navigation stack), wraps each child's effects in this, with an id naming
  /// the child among its siblings (its place in the parent, and its identity there). Scopes nest:
  /// a grandchild's effects run in its own scope inside its parent's. Within a scope:
  ///
  /// - ``cancellable(id:cancelInFlight:)``, ``cancel(id:)`` and `Task.cancel(id:)` reach only
  ///   the effects of the same scope and of the scopes inside it: two children of one type,
  ///   each with `.cancellable(id: CancelID.timer)`, cannot cancel each other's timer, and a
  ///   child cannot cancel its parent's effects; a parent reaches its children's.
  /// - ``cancelChild(_:)``, returned by the parent, cancels everything the child's scope runs,
  ///   its descendants' included: what a parent does when the child goes away.
  ///
  /// - Parameter id: The child's id, unique among the scopes the parent creates.
  /// - Returns: The effect, in the child's scope.
  @usableFromInline
  package func scoped(toChild id: some Hashable & Sendable) -> Self {
    isNone ? self : Self(operation: .child(self, id: AnyHashableSendable(id)))
  }

  /// An effect that cancels every running effect of the child `id` (see
  /// ``scoped(toChild:)``) of the reducer that returns it, and of the child's descendants.
  ///
  /// - Parameter id: The child's id, as given to `scoped(toChild:)`.
  /// - Returns: The effect.
  @usableFromInline
  package static func cancelChild(_ id: some Hashable & Sendable) -> Self {
    Self(operation: .cancelChild(id: AnyHashableSendable(id)))
  }

  /// An effect that cancels every running effect of the children (see
  /// ``scoped(toChild:)``) of the reducer that returns it whose ids satisfy `isMatch`, and of
  /// their descendants: the children a parent removed at once (rows of a list, say).
  ///
  /// - Parameter isMatch: Whether a child's id names a child to cancel.
  /// - Returns: The effect.
  @usableFromInline
  package static func cancelChildren(
    where isMatch: @escaping @Sendable (AnyHashableSendable) -> Bool
  ) -> Self {
    Self(operation: .cancelChildren(isMatch))
  }
}
