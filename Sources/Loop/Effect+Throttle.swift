extension Effect {
  /// This effect, letting at most one action through per `interval` for the effects throttled
  /// with `id`.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   return .send(.searchRequested(query))
  ///     .throttle(id: CancelID.search, for: .seconds(1), clock: clock, latest: true)
  /// ```
  ///
  /// The first action goes through at once. One that comes within `interval` of the last one
  /// let through waits until the interval has passed, and a newer throttled effect with the same
  /// id replaces the one waiting (the id is also the effects' cancellation id, with
  /// `cancelInFlight`). When the wait ends, the action sent is the newest one when `latest` is
  /// `true`, and the first one that came in the interval when it is `false`. The time of the
  /// last action let through is kept by the store, per id, so tests of one feature running side
  /// by side do not share it; drive it with a `TestClock`.
  ///
  /// - Parameters:
  ///   - id: The id shared by the effects throttled together.
  ///   - interval: The shortest time between two actions let through.
  ///   - clock: The clock to measure it on; pass the `continuousClock` dependency.
  ///   - latest: Whether a wait ends with the newest action (`true`) or the first one (`false`).
  /// - Returns: The throttled effect.
  public func throttle(
    id: some Hashable & Sendable, for interval: Duration, clock: any Clock<Duration>,
    latest: Bool
  ) -> Self {
    guard !isNone else { return self }
    let throttle = Throttle(
      id: AnyHashableSendable(id), interval: interval, clock: clock, latest: latest)
    return gated(through: throttle).cancellable(id: id, cancelInFlight: true)
  }

  /// This effect with every action it sends passed, in order, through `throttle` first.
  private func gated(through throttle: Throttle) -> Self {
    switch operation {
    case .none, .cancel, .cancelChild, .cancelChildren:
      return self
    case .send(let action):
      return .run { send in await throttle.pass(action, to: send) }
    case .run(let setup, let operation):
      return Self(
        operation: .run(setup) { send in
          let (actions, continuation) = AsyncStream<UncheckedSendable<Action>>.makeStream()
          await withTaskGroup(of: Void.self) { group in
            group.addTask {
              for await action in actions { await throttle.pass(action, to: send) }
            }
            await operation(Send { continuation.yield(UncheckedSendable($0)) })
            continuation.finish()
          }
        })
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.gated(through: throttle) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.gated(through: throttle) }))
    case .cancellable(let effect, let id, let cancelInFlight):
      return Self(
        operation: .cancellable(
          effect.gated(through: throttle), id: id, cancelInFlight: cancelInFlight))
    case .child(let effect, let id):
      return Self(operation: .child(effect.gated(through: throttle), id: id))
    }
  }
}

/// The gate of `Effect.throttle(id:for:clock:latest:)`: what it keeps per store and id is
/// when it last let an action through, and the action waiting.
private struct Throttle: Sendable {
  let id: AnyHashableSendable
  let interval: Duration
  let clock: any Clock<Duration>
  let latest: Bool

  /// What the store keeps for one throttle id.
  struct Memory: Sendable {
    var lastSent: (any InstantProtocol<Duration>)?
    var waiting: UncheckedSendable<Any>?
  }

  /// Sends `action`, now or once the interval since the last action let through has passed
  /// (unless the effect is cancelled meanwhile).
  ///
  /// NB: on the main actor, where the store takes the actions; they need not be `Sendable`.
  @MainActor
  func pass<Action>(_ action: UncheckedSendable<Action>, to send: Send<Action>) async {
    // NB: the context is the store's: without one (an effect run by hand) nothing is kept.
    guard let context = EffectContext.current, let storage = context.runtime?.storage else {
      return await send(action.value)
    }
    await pass(action.value, to: send, on: clock, keeping: storage, under: context.scoped(id))
  }

  @MainActor
  private func pass<Action, C: Clock<Duration>>(
    _ action: Action, to send: Send<Action>, on clock: C, keeping storage: EffectStorage,
    under key: ScopedEffectID
  ) async {
    let now = clock.now
    let decision = storage.withValue(key, as: Memory.self) { memory -> (Action, C.Instant?) in
      guard let lastSent = memory?.lastSent as? C.Instant else {
        memory = Memory(lastSent: now)
        return (action, nil)
      }
      let waiting = memory?.waiting?.value as? Action
      let chosen = latest ? action : (waiting ?? action)
      guard lastSent.duration(to: now) < interval else {
        memory = Memory(lastSent: now)
        return (chosen, nil)
      }
      memory?.waiting = UncheckedSendable(chosen)
      return (chosen, lastSent.advanced(by: interval))
    }
    guard let wait = decision.1 else { return await send(decision.0) }
    do {
      try await clock.sleep(until: wait, tolerance: nil)
    } catch {
      return
    }
    let chosen = storage.withValue(key, as: Memory.self) { memory -> Action? in
      defer { memory = Memory(lastSent: clock.now) }
      return memory?.waiting?.value as? Action
    }
    await send(chosen ?? action)
  }
}
