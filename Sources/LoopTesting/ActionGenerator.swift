/// Generates the actions an exploration sends, from the state the feature is in.
///
/// Build one from the cases it may send, each with a weight (how often it is chosen against the
/// others) and, where it carries one, a payload drawn from an ``ExplorationRandom``:
///
/// ```swift
/// let actions = ActionGenerator<Counter.State, Counter.Action>(
///   .always(.incrementSubmitted, weight: 3),
///   .case { random, _ in .amountChanged(random.int(in: 0...9)) },
///   .element(of: \.rows) { row, _ in .deleteSubmitted(row.id) }
/// )
/// ```
///
/// A case that has nothing to act on (``Case/element(of:weight:_:)`` on an empty collection, or a
/// closure that returns `nil`) gives way to the next case in the list, so every step sends an
/// action whenever one case can.
public struct ActionGenerator<State, Action> {
  /// One case an action generator may choose.
  public struct Case {
    /// How often the case is chosen, against the other cases' weights.
    public var weight: Int
    /// Makes the case's action from a random source and the current state, or `nil` when the
    /// state offers nothing for it.
    public var make: (inout ExplorationRandom, State) -> Action?

    /// Creates a case.
    public init(weight: Int = 1, make: @escaping (inout ExplorationRandom, State) -> Action?) {
      self.weight = weight
      self.make = make
    }

    /// A case that always sends `action`.
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - weight: How often it is chosen.
    /// - Returns: The case.
    public static func always(_ action: Action, weight: Int = 1) -> Self {
      Self(weight: weight) { _, _ in action }
    }

    /// A case whose action the closure makes, with a payload drawn from the random source and
    /// the current state.
    ///
    /// - Parameters:
    ///   - weight: How often it is chosen.
    ///   - make: Makes the action, or returns `nil` when the state offers nothing for it.
    /// - Returns: The case.
    public static func `case`(
      weight: Int = 1, _ make: @escaping (inout ExplorationRandom, State) -> Action?
    ) -> Self {
      Self(weight: weight, make: make)
    }

    /// A case that targets an element the state holds (a row to delete, a link to open), so
    /// that actions act on what exists; it gives way when the collection is empty.
    ///
    /// - Parameters:
    ///   - elements: Where the state keeps the elements.
    ///   - weight: How often it is chosen.
    ///   - make: Makes the action for the chosen element.
    /// - Returns: The case.
    public static func element<C: Collection>(
      of elements: KeyPath<State, C>, weight: Int = 1,
      _ make: @escaping (C.Element, inout ExplorationRandom) -> Action?
    ) -> Self {
      Self(weight: weight) { random, state in
        guard let element = random.element(of: state[keyPath: elements]) else { return nil }
        return make(element, &random)
      }
    }
  }

  /// The cases, in the order they give way to each other.
  public var cases: [Case]

  /// Creates a generator from its cases.
  public init(_ cases: Case...) {
    self.cases = cases
  }

  /// Creates a generator from its cases.
  public init(cases: [Case]) {
    self.cases = cases
  }

  /// Creates a generator from one closure, which chooses the case itself.
  ///
  /// - Parameter make: Makes the next action, or returns `nil` to skip the step.
  public init(_ make: @escaping (inout ExplorationRandom, State) -> Action?) {
    self.cases = [Case(make: make)]
  }

  /// This generator for a child feature, lifted into its parent: it makes the child's actions
  /// from the child's state, and sends them embedded in the parent's action.
  ///
  /// ```swift
  /// let app = ActionGenerator<AppFeature.State, AppFeature.Action>(
  ///   cases: Ledger.actions.scoped(state: \.ledger, action: { .ledger($0) }).cases
  ///     + Habits.actions.scoped(state: \.habits, action: { .habits($0) }).cases
  /// )
  /// ```
  ///
  /// - Parameters:
  ///   - state: Where the parent keeps the child's state.
  ///   - action: Embeds a child action in the parent's.
  /// - Returns: The parent's generator.
  public func scoped<Parent, ParentAction>(
    state: KeyPath<Parent, State>, action: @escaping (Action) -> ParentAction
  ) -> ActionGenerator<Parent, ParentAction> {
    ActionGenerator<Parent, ParentAction>(
      cases: cases.map { child in
        ActionGenerator<Parent, ParentAction>.Case(weight: child.weight) { random, parent in
          child.make(&random, parent[keyPath: state]).map(action)
        }
      })
  }

  /// The next action for `state`: a case chosen by weight (the first draw), or the cases after
  /// it when it has nothing to act on; `nil` when no case has.
  ///
  /// - Parameters:
  ///   - random: The random source.
  ///   - state: The current state.
  /// - Returns: The action.
  public func action(using random: inout ExplorationRandom, for state: State) -> Action? {
    let total = cases.reduce(0) { $0 + max($1.weight, 0) }
    guard total > 0 else { return nil }
    var pick = Int(random.next() % UInt64(total))
    var chosen = 0
    for (index, candidate) in cases.enumerated() {
      let weight = max(candidate.weight, 0)
      if pick < weight {
        chosen = index
        break
      }
      pick -= weight
    }
    for offset in cases.indices {
      let candidate = cases[(chosen + offset) % cases.count]
      guard candidate.weight > 0 else { continue }
      if let action = candidate.make(&random, state) { return action }
    }
    return nil
  }
}
