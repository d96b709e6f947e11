extension CasePath {
  /// A path through this case to the action of one element of a collection: the case's
  /// ``IdentifiedAction`` when it names the element with `id`.
  ///
  /// TCA writes it `\.rows[id: id]`. Send or receive one row's action in a test without
  /// spelling the `IdentifiedAction`:
  ///
  /// ```swift
  /// await store.send(.case(Action.rows).element(id: UUID(0)), .addSubmitted)
  /// // the same as
  /// await store.send(.rows(.element(id: UUID(0), action: .addSubmitted)))
  /// ```
  ///
  /// - Parameter id: The element's id.
  /// - Returns: A path from `Root` to the element's action: it extracts only the actions of that
  ///   element, and embeds into `.element(id: id, action:)`.
  public func element<ID: Hashable & Sendable, ElementAction>(
    id: ID
  ) -> CasePath<Root, ElementAction> where Value == IdentifiedAction<ID, ElementAction> {
    CasePath<Root, ElementAction>(
      embed: { self.embed(.element(id: id, action: $0)) },
      extract: { root in
        guard case .element(id, let action)? = self.extract(root) else { return nil }
        return action
      })
  }

  /// The path to the action of the element with `id` (see ``element(id:)``), as a subscript.
  ///
  /// ```swift
  /// let firstRow = CasePath.case(Action.rows)[id: UUID(0)]
  /// ```
  ///
  /// - Parameter id: The element's id.
  public subscript<ID: Hashable & Sendable, ElementAction>(
    id id: ID
  ) -> CasePath<Root, ElementAction> where Value == IdentifiedAction<ID, ElementAction> {
    element(id: id)
  }
}
