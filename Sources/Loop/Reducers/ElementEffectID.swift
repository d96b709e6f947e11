/// The scope an element's effects run in, for a reducer of a collection of elements (`forEach`
/// over an `IdentifiedArray` or a `StackState`): the collection's place and the element's id.
@usableFromInline
struct ElementEffectID<ID: Hashable & Sendable>: Hashable, @unchecked Sendable {
  // NB: key paths are immutable and only compared here.
  @usableFromInline let path: AnyKeyPath
  @usableFromInline let id: ID

  @usableFromInline
  init<Root, Value>(path: UncheckedSendable<WritableKeyPath<Root, Value>>, id: ID) {
    self.path = path.value
    self.id = id
  }

  /// An effect that cancels the running effects of the elements at `path` that have left it:
  /// those whose id `remaining` (the ids the collection holds now) does not find.
  @usableFromInline
  static func cancelEffects<Root, Value, Action>(
    ofElementsLeaving path: WritableKeyPath<Root, Value>,
    remaining: @escaping (ID) -> Bool
  ) -> Effect<Action> {
    // NB: `remaining` reads an immutable copy of the collection; the generic element type it
    // captures is not `Sendable`, which is why it is not a `@Sendable` closure.
    let path = UncheckedSendable(path as AnyKeyPath)
    let remaining = UncheckedSendable(remaining)
    return .cancelChildren { id in
      guard let id = id.value as? Self else { return false }
      return id.path == path.value && !remaining.value(id.id)
    }
  }
}
