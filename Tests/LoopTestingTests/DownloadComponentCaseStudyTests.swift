import Foundation
import LoopTesting
import Testing

/// TCA's download client, from its "Reusable offline downloads" case study: a stream of progress
/// events that ends with the downloaded data.
private struct DownloadClient: Sendable {
  var download: @Sendable (_ url: URL) -> AsyncThrowingStream<Event, any Error>

  enum Event: Equatable, Sendable {
    case response(Data)
    case updateProgress(Double)
  }
}

extension DownloadClient: DependencyKey {
  static let liveValue = Self.testValue
  static let testValue = Self(
    download: unimplemented(
      "DownloadClient.download", placeholder: AsyncThrowingStream { $0.finish() }))
}

extension DependencyValues {
  fileprivate var downloadClient: DownloadClient {
    get { self[DownloadClient.self] }
    set { self[DownloadClient.self] = newValue }
  }
}

/// TCA's "download component" case study, moved to Loop unchanged but for the views and the
/// `animation:` of its sends: a reusable component that downloads, shows progress, stops a
/// download in flight and deletes a finished one, asking first with an alert.
private struct DownloadComponent: Reducer {
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    let id: AnyHashableSendable
    var mode: Mode = .notDownloaded
    let url: URL
  }

  enum Action {
    case alert(PresentationAction<Alert>)
    case buttonTapped
    case downloadClient(Result<DownloadClient.Event, any Error>)

    enum Alert: Equatable {
      case deleteButtonTapped
      case stopButtonTapped
    }
  }

  @Dependency(\.downloadClient) var downloadClient

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.deleteButtonTapped)):
        state.mode = .notDownloaded
        return .none

      case .alert(.presented(.stopButtonTapped)):
        state.mode = .notDownloaded
        return .cancel(id: state.id)

      case .alert:
        return .none

      case .buttonTapped:
        switch state.mode {
        case .downloaded:
          state.alert = deleteAlert
          return .none

        case .downloading:
          state.alert = stopAlert
          return .none

        case .notDownloaded:
          state.mode = .startingToDownload
          return .run { [url = state.url] send in
            for try await event in self.downloadClient.download(url) {
              await send(.downloadClient(.success(event)))
            }
          } catch: { error, send in
            await send(.downloadClient(.failure(error)))
          }
          .cancellable(id: state.id)

        case .startingToDownload:
          state.alert = stopAlert
          return .none
        }

      case .downloadClient(.success(.response)):
        state.mode = .downloaded
        state.alert = nil
        return .none

      case .downloadClient(.success(.updateProgress(let progress))):
        state.mode = .downloading(progress: progress)
        return .none

      case .downloadClient(.failure):
        state.mode = .notDownloaded
        state.alert = nil
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
  }

  private var deleteAlert: AlertState<Action.Alert> {
    AlertState {
      TextState("Do you want to delete this map from your offline storage?")
    } actions: {
      ButtonState(role: .destructive, action: .send(.deleteButtonTapped)) {
        TextState("Delete")
      }
      self.nevermindButton
    }
  }

  private var stopAlert: AlertState<Action.Alert> {
    AlertState {
      TextState("Do you want to stop downloading this map?")
    } actions: {
      ButtonState(role: .destructive, action: .send(.stopButtonTapped)) {
        TextState("Stop")
      }
      self.nevermindButton
    }
  }

  private var nevermindButton: ButtonState<Action.Alert> {
    ButtonState(role: .cancel) {
      TextState("Nevermind")
    }
  }
}

private enum Mode: Equatable {
  case downloaded
  case downloading(progress: Double)
  case notDownloaded
  case startingToDownload
}

/// The case paths TCA's tests write as `\.downloadClient.success.…` and `\.alert.…`.
private let downloadEvent = CasePath.case(DownloadComponent.Action.downloadClient)
  .appending(path: .case(Result<DownloadClient.Event, any Error>.success))
private let alertAnswer = CasePath.case(DownloadComponent.Action.alert)
  .appending(path: .case(PresentationAction<DownloadComponent.Action.Alert>.presented))

/// TCA's tests of the download component, moved unchanged.
@MainActor
@Suite struct DownloadComponentCaseStudyTests {
  private static func makeStore(
    mode: Mode, stream: AsyncThrowingStream<DownloadClient.Event, any Error>
  ) -> TestStore<DownloadComponent.State, DownloadComponent.Action> {
    TestStore(
      initialState: DownloadComponent.State(
        id: AnyHashableSendable(1),
        mode: mode,
        url: URL(fileURLWithPath: "/maps/new-york")
      )
    ) {
      DownloadComponent()
    } withDependencies: {
      $0.downloadClient.download = { @Sendable _ in stream }
    }
  }

  @Test func downloadFlow() async {
    let download = AsyncThrowingStream.makeStream(of: DownloadClient.Event.self)
    let store = Self.makeStore(mode: .notDownloaded, stream: download.stream)

    await store.send(.buttonTapped) {
      $0.mode = .startingToDownload
    }

    download.continuation.yield(.updateProgress(0.2))
    await store.receive(downloadEvent, .updateProgress(0.2)) {
      $0.mode = .downloading(progress: 0.2)
    }

    download.continuation.yield(.response(Data()))
    download.continuation.finish()
    await store.receive(downloadEvent, .response(Data())) {
      $0.mode = .downloaded
    }
  }

  @Test func cancelDownloadFlow() async {
    let download = AsyncThrowingStream.makeStream(of: DownloadClient.Event.self)
    let store = Self.makeStore(mode: .notDownloaded, stream: download.stream)

    await store.send(.buttonTapped) {
      $0.mode = .startingToDownload
    }

    download.continuation.yield(.updateProgress(0.2))
    await store.receive(downloadEvent, .updateProgress(0.2)) {
      $0.mode = .downloading(progress: 0.2)
    }

    await store.send(.buttonTapped) {
      $0.alert = AlertState {
        TextState("Do you want to stop downloading this map?")
      } actions: {
        ButtonState(role: .destructive, action: .send(.stopButtonTapped)) {
          TextState("Stop")
        }
        ButtonState(role: .cancel) {
          TextState("Nevermind")
        }
      }
    }

    await store.send(alertAnswer, .stopButtonTapped) {
      $0.alert = nil
      $0.mode = .notDownloaded
    }
  }

  @Test func downloadFinishesWhileTryingToCancel() async {
    let download = AsyncThrowingStream.makeStream(of: DownloadClient.Event.self)
    let store = Self.makeStore(mode: .notDownloaded, stream: download.stream)

    let task = await store.send(.buttonTapped) {
      $0.mode = .startingToDownload
    }

    await store.send(.buttonTapped) {
      $0.alert = AlertState {
        TextState("Do you want to stop downloading this map?")
      } actions: {
        ButtonState(role: .destructive, action: .send(.stopButtonTapped)) {
          TextState("Stop")
        }
        ButtonState(role: .cancel) {
          TextState("Nevermind")
        }
      }
    }

    download.continuation.yield(.response(Data()))
    download.continuation.finish()
    await store.receive(downloadEvent, .response(Data())) {
      $0.alert = nil
      $0.mode = .downloaded
    }

    await task.finish()
  }

  @Test func deleteDownloadFlow() async {
    let download = AsyncThrowingStream.makeStream(of: DownloadClient.Event.self)
    let store = Self.makeStore(mode: .downloaded, stream: download.stream)

    await store.send(.buttonTapped) {
      $0.alert = AlertState {
        TextState("Do you want to delete this map from your offline storage?")
      } actions: {
        ButtonState(role: .destructive, action: .send(.deleteButtonTapped)) {
          TextState("Delete")
        }
        ButtonState(role: .cancel) {
          TextState("Nevermind")
        }
      }
    }

    await store.send(alertAnswer, .deleteButtonTapped) {
      $0.alert = nil
      $0.mode = .notDownloaded
    }
  }

  @Test func aFailedDownloadEndsWithNothingDownloaded() async {
    struct Offline: Error {}
    let download = AsyncThrowingStream.makeStream(of: DownloadClient.Event.self)
    let store = Self.makeStore(mode: .notDownloaded, stream: download.stream)

    await store.send(.buttonTapped) {
      $0.mode = .startingToDownload
    }
    download.continuation.finish(throwing: Offline())
    await store.receive(.case(DownloadComponent.Action.downloadClient)) {
      $0.mode = .notDownloaded
    }
  }
}
