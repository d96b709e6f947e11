import Dispatch
import Loop
import Synchronization
import Testing

// NB: TCA's SyncUps, as every TCA app writes its effects: the reducer's `@Dependency`
// properties are read inside `.run`, through `self` or a capture list. Each operation must start
// on the store's actor, inside `send`, and stay there until it awaits work isolated elsewhere,
// however its closure captures. (Swift 6.3 compiled an operation with a capture list as
// `@concurrent`, swiftlang/swift#87097: it ran on the global executor, beside the store.)

extension DependencyValues {
  /// Opens the system's settings, as TCA's SyncUps declares it (with Loop's nonsending
  /// endpoints), for these tests.
  fileprivate var openSettings: nonisolated(nonsending) @Sendable () async -> Void {
    get { self[OpenSettingsKey.self] }
    set { self[OpenSettingsKey.self] = newValue }
  }

  /// Records an event, for these tests.
  fileprivate var track: nonisolated(nonsending) @Sendable (String) async -> Void {
    get { self[TrackKey.self] }
    set { self[TrackKey.self] = newValue }
  }
}

private enum OpenSettingsKey: DependencyKey {
  static let liveValue: nonisolated(nonsending) @Sendable () async -> Void = {}
  static let testValue: nonisolated(nonsending) @Sendable () async -> Void = {}
}

private enum TrackKey: DependencyKey {
  static let liveValue: nonisolated(nonsending) @Sendable (String) async -> Void = { _ in }
  static let testValue: nonisolated(nonsending) @Sendable (String) async -> Void = { _ in }
}

/// SyncUps' detail screen: a delete alert answered with `dismiss()`, a settings alert answered
/// with `openSettings()`, both `@Dependency` properties of the reducer read in `.run`: through
/// `self`, through a capture list, and after tracking the answer first.
private struct SyncUpDetail: Reducer {
  struct State: Equatable {
    var title = "Design"
    @Presents var alert: AlertState<Action.Alert>? = nil
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case deleteSubmitted

    enum Alert: Equatable, CaseIterable {
      case confirmDeletion
      case confirmDeletionCaptured
      case confirmDeletionTracked
      case confirmDeletionTrackedCaptured
      case openSettings
      case openSettingsCaptured
      case openSettingsTracked
      case openSettingsTrackedCaptured
    }
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.openSettings) var openSettings
  @Dependency(\.track) var track

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        return .run { _ in await dismiss() }
      case .alert(.presented(.confirmDeletionCaptured)):
        return .run { [dismiss] _ in await dismiss() }
      case .alert(.presented(.confirmDeletionTracked)):
        return .run { _ in
          await track("deleted")
          await dismiss()
        }
      case .alert(.presented(.confirmDeletionTrackedCaptured)):
        return .run { [dismiss, track] _ in
          await track("deleted")
          await dismiss()
        }
      case .alert(.presented(.openSettings)):
        return .run { _ in await openSettings() }
      case .alert(.presented(.openSettingsCaptured)):
        return .run { [openSettings] _ in await openSettings() }
      case .alert(.presented(.openSettingsTracked)):
        return .run { _ in
          await track("settings")
          await openSettings()
        }
      case .alert(.presented(.openSettingsTrackedCaptured)):
        return .run { [openSettings, track] _ in
          await track("settings")
          await openSettings()
        }
      case .alert:
        return .none
      case .deleteSubmitted:
        state.alert = AlertState { TextState("Delete?") }
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
  }
}

/// SyncUps' app: the detail presented over the list, which notes when it closes.
private struct SyncUpsApp: Reducer {
  struct State: Equatable {
    var log: [String] = []
    @Presents var detail: SyncUpDetail.State? = SyncUpDetail.State()
  }

  enum Action: Equatable {
    case detail(PresentationAction<SyncUpDetail.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .detail(.dismiss) = action { state.log.append("detail dismissed") }
      return .none
    }
    .ifLet(\.$detail, action: .case(Action.detail)) { SyncUpDetail() }
  }
}

/// Marks the main queue, so a dependency can tell whether it was called on the main actor.
private let mainQueueKey = DispatchSpecificKey<Bool>()
@MainActor private let markMainQueue: Void = DispatchQueue.main.setSpecific(
  key: mainQueueKey, value: true)

/// The calls the dependencies saw, each with whether it ran on the main actor.
private final class Calls: Sendable {
  private let calls = Mutex<[String]>([])

  func record(_ name: String) {
    let isMain = DispatchQueue.getSpecific(key: mainQueueKey) == true
    calls.withLock { $0.append(isMain ? name : "\(name) off the main actor") }
  }

  var values: [String] { calls.withLock { $0 } }
}

@MainActor
@Suite struct EffectIsolationTests {
  init() { markMainQueue }

  nonisolated private static let deletions = SyncUpDetail.Action.Alert.allCases.filter {
    "\($0)".hasPrefix("confirmDeletion")
  }
  nonisolated private static let settings = SyncUpDetail.Action.Alert.allCases.filter {
    "\($0)".hasPrefix("openSettings")
  }

  private func makeStore(_ calls: Calls) -> Store<SyncUpsApp.State, SyncUpsApp.Action> {
    let store = Store(initialState: SyncUpsApp.State()) {
      SyncUpsApp()
    } withDependencies: {
      $0.openSettings = { calls.record("openSettings") }
      $0.track = { calls.record("track \($0)") }
    }
    store.send(.detail(.presented(.deleteSubmitted)))
    return store
  }

  @Test(arguments: deletions)
  fileprivate func aConfirmedDeletionDismissesTheDetailBeforeSendReturns(
    answer: SyncUpDetail.Action.Alert
  ) async {
    let calls = Calls()
    let store = makeStore(calls)
    let task = store.send(.detail(.presented(.alert(.presented(answer)))))
    #expect(store.state.detail == nil)
    #expect(store.state.log == ["detail dismissed"])
    #expect(
      calls.values
        == (answer == .confirmDeletion || answer == .confirmDeletionCaptured
          ? [] : ["track deleted"]))
    await task.finish()
  }

  @Test(arguments: settings)
  fileprivate func openingSettingsCallsTheDependencyOnTheMainActorBeforeSendReturns(
    answer: SyncUpDetail.Action.Alert
  ) async {
    let calls = Calls()
    let store = makeStore(calls)
    let task = store.send(.detail(.presented(.alert(.presented(answer)))))
    #expect(
      calls.values
        == (answer == .openSettings || answer == .openSettingsCaptured
          ? ["openSettings"] : ["track settings", "openSettings"]))
    #expect(store.state.detail?.alert == nil)
    await task.finish()
  }
}
