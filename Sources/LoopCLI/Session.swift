import AppFeature
import LinkList
import Loop

/// The REPL: reads commands, turns each into actions sent to the app's one `Store`, waits for
/// the effects they started, and prints what the state then shows.
///
/// ```swift
/// let session = Session(environment: .live(context: context), console: .standard,
///                       configuration: Session.Configuration(mode: .interactive))
/// let status = await session.run(reader)
/// ```
///
/// The session never calls a client: every read and write is an action, and every result is
/// read from the state. A command fails when it cannot be parsed, or when a client's response
/// carried a failure while it ran (``AnswerTap``); the session then prints `error: ` and the
/// message on standard error, with hint lines, and changes nothing else.
///
/// A reader finds the session's parts in a file each:
/// - here, what it owns: the one store, the environment it runs on, and what it remembers
///   between commands (the nouns loaded, the ref lengths, the recording);
/// - `Session+Configuration.swift`: how it runs (interactive, a script, one command);
/// - `Session+Run.swift`: the loop that reads lines, runs commands and reports their errors;
/// - `Session+Send.swift`: sending actions and waiting for their effects and answers;
/// - `Session+Load.swift`: loading a noun's data the first time a command needs it, and
///   forgetting it when an import changed it;
/// - `Session+Confirm.swift`: asking an alert's question at the prompt;
/// - `Session+Output.swift`: printing a listing as text or JSON;
/// - `Session+Refs.swift`: finding the item a ref or a name names, and its short ref;
/// - `Session+Import.swift`: what `import` prints and forgets;
/// - `SessionRecording.swift`: recording, and the files and answers a replay hands out.
@MainActor
public final class Session {
  /// The app's store; a new one when a recording starts (see ``SessionRecording``).
  var store: Store<AppFeature.State, AppFeature.Action>
  /// The environment the store runs on; its dates, ids and clock are recorded while recording.
  var environment: AppEnvironment
  let console: Console
  let configuration: Configuration
  let style: Style
  /// Whether `:trace` prints actions.
  let trace: TraceSwitch
  /// Where the store shows each action it processed to the command waiting for an answer.
  let answers = AnswerTap()
  /// A reducer run after the app's on every action, for tests that change its behaviour.
  private let extraReducer: Reduce<AppFeature.State, AppFeature.Action>?

  /// The recording being written (`loop --record`, `:record FILE`), or `nil`.
  var recording: SessionRecording?

  /// The recorded values a replay hands out: files imports read, answers to confirmations.
  var replayedValues: RecordedValues?

  /// The nouns whose data the session has loaded (their list "appeared"); a command needing a
  /// ref of one loads it first.
  var loaded: Set<Noun> = []

  /// The ref length of each noun's loaded items, kept up to date as commands change them.
  var refLengths: [Noun: RefLengthCache] = [:]

  /// The names of each noun's loaded items, for tab completion, which runs off the main actor.
  nonisolated let completionNames = CompletionNames()

  /// The reader of the running session, for confirmations.
  var reader: (any LineReader)?

  /// Creates a session with its own store of ``AppFeature/AppFeature`` on `environment`.
  ///
  /// - Parameters:
  ///   - environment: The clients, time and ids the store uses.
  ///   - console: Where output and errors go.
  ///   - configuration: How the session runs.
  public convenience init(
    environment: AppEnvironment, console: Console, configuration: Configuration
  ) {
    self.init(
      environment: environment, console: console, configuration: configuration,
      extraReducer: nil)
  }

  /// Creates a session whose store runs `extraReducer` after the app's reducer.
  init(
    environment: AppEnvironment, console: Console, configuration: Configuration,
    extraReducer: Reduce<AppFeature.State, AppFeature.Action>?
  ) {
    let trace = TraceSwitch()
    self.trace = trace
    self.environment = environment
    self.console = console
    self.configuration = configuration
    self.style = Style(isEnabled: configuration.usesColor, width: configuration.width)
    self.extraReducer = extraReducer
    self.store = Self.makeStore(
      environment: environment, trace: trace, console: console, answers: answers,
      extraReducer: extraReducer)
  }

  private static func makeStore(
    environment: AppEnvironment, trace: TraceSwitch, console: Console, answers: AnswerTap,
    extraReducer: Reduce<AppFeature.State, AppFeature.Action>?
  ) -> Store<AppFeature.State, AppFeature.Action> {
    // NB: the links start on their "Recent" screen, which is what a change reloads: it reads
    // at most six links, where "All links" would read every one after each `link add`.
    let initialState = AppFeature.State(links: LinkList.State(screen: .recent))
    let app = AppFeature()._printChanges(
      when: { trace.isOn }, to: { console.writeOutput($0 + "\n") })
    let tap = Reduce<AppFeature.State, AppFeature.Action> { _, action in
      answers.show(action)
      return .none
    }
    // NB: the app's reducer alone unless a test adds one, so the app runs exactly what it ran
    // before tests could.
    guard let extraReducer else {
      return Store(initialState: initialState) {
        app
        tap
      } withDependencies: {
        environment.apply(to: &$0)
      }
    }
    return Store(initialState: initialState) {
      app
      extraReducer
      tap
    } withDependencies: {
      environment.apply(to: &$0)
    }
  }

  /// Starts over on `environment` with a new store, nothing loaded: what a recording starts
  /// from.
  func restart(on environment: AppEnvironment) {
    self.environment = environment
    store = Self.makeStore(
      environment: environment, trace: trace, console: console, answers: answers,
      extraReducer: extraReducer)
    loaded = []
    refLengths = [:]
  }

  /// The app's state, as the commands left it.
  public var state: AppFeature.State { store.state }
}
