import AppFeature
import Foundation
import HabitClient
import LinkList
import Loop
import Synchronization

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
/// read from the state. A command fails when it cannot be parsed, or when a feature shows an
/// error after its actions (``AppFeature/AppFeature/State/errorMessage``); the session then
/// prints `error: ` and the message on standard error, with hint lines, and changes nothing
/// else.
@MainActor
public final class Session {
  /// How the session runs.
  public struct Configuration: Sendable {
    /// Where the commands come from.
    public enum Mode: Sendable, Equatable {
      /// A person at a terminal: a prompt, confirmations, errors do not end the session.
      case interactive
      /// A script (`--script FILE`, or standard input that is not a terminal), named in error
      /// locations: no prompt; the first failing command ends it unless `keepGoing`.
      case script(name: String)
      /// One command from the process arguments.
      case oneShot
    }

    /// Where the commands come from.
    public var mode: Mode
    /// In a script, whether to run the commands after a failing one (the exit status is still
    /// 1).
    public var keepGoing: Bool
    /// Whether output may have colours.
    public var usesColor: Bool
    /// Where the data lives, for messages about storage failures: a path, or `nil` in memory.
    public var databasePath: String?
    /// Whether imports draw a progress bar on standard error (a terminal without `NO_COLOR`).
    public var showsProgress: Bool
    /// Where relative file paths of `import` and `export` start; `nil` for the process's
    /// current directory.
    public var currentDirectory: String?
    /// What cancels a running command in an interactive session (Ctrl-C); `nil` for nothing.
    var interrupts: Interrupts?

    /// A configuration with these values.
    public init(
      mode: Mode, keepGoing: Bool = false, usesColor: Bool = false, databasePath: String? = nil,
      showsProgress: Bool = false, currentDirectory: String? = nil
    ) {
      self.init(
        mode: mode, keepGoing: keepGoing, usesColor: usesColor, databasePath: databasePath,
        showsProgress: showsProgress, currentDirectory: currentDirectory, interrupts: nil)
    }

    /// A configuration with these values, cancelling commands on `interrupts`.
    init(
      mode: Mode, keepGoing: Bool = false, usesColor: Bool = false, databasePath: String? = nil,
      showsProgress: Bool = false, currentDirectory: String? = nil, interrupts: Interrupts?
    ) {
      self.interrupts = interrupts
      self.mode = mode
      self.keepGoing = keepGoing
      self.usesColor = usesColor
      self.databasePath = databasePath
      self.showsProgress = showsProgress
      self.currentDirectory = currentDirectory
    }
  }

  /// What running one line came to.
  enum Outcome: Equatable {
    case success
    case failure
    case quit
  }

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
  private let answers = AnswerTap()
  /// A reducer run after the app's on every action, for tests that change its behaviour.
  private let extraReducer: Reduce<AppFeature.State, AppFeature.Action>?

  /// The recording being written (`loop --record`, `:record FILE`), or `nil`.
  var recording: SessionRecording?

  /// The recorded values a replay hands out: files imports read, answers to confirmations.
  var replayedValues: RecordedValues?

  /// The nouns whose data the session has loaded (their list "appeared"); a command needing a
  /// ref of one loads it first.
  var loaded: Set<Noun> = []

  /// The ref length of the loaded habits, kept up to date as commands change them.
  var habitRefLengths = RefLengthCache()

  /// The ref length of the loaded transactions, kept up to date as commands change them.
  var ledgerRefLengths = RefLengthCache()

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
    self.style = Style(isEnabled: configuration.usesColor)
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
    habitRefLengths = RefLengthCache()
    ledgerRefLengths = RefLengthCache()
  }

  /// The app's state, as the commands left it.
  public var state: AppFeature.State { store.state }

  /// Runs every line of `reader` until it ends, `exit`, or (in a script) a failing command.
  ///
  /// - Parameter reader: Where the lines come from.
  /// - Returns: The exit status: 0, or 1 when a script had a failing command.
  public func run(_ reader: any LineReader) async -> Int32 {
    self.reader = reader
    defer { self.reader = nil }
    let prompt = configuration.mode == .interactive ? "loop> " : ""
    var lineNumber = 0
    var failed = false
    while let line = reader.readLine(prompt: prompt) {
      lineNumber += 1
      if configuration.mode == .interactive, !line.allSatisfy(\.isWhitespace) {
        reader.addToHistory(line)
      }
      let outcome: Outcome
      if let interrupts = configuration.interrupts, configuration.mode == .interactive {
        let number = lineNumber
        outcome = await interrupts.cancellingOnInterrupt {
          await self.execute(line, lineNumber: number)
        }
      } else {
        outcome = await execute(line, lineNumber: lineNumber)
      }
      switch outcome {
      case .success: continue
      case .quit: return failed ? 1 : 0
      case .failure:
        guard case .script = configuration.mode else { continue }
        failed = true
        if !configuration.keepGoing { return 1 }
      }
    }
    return failed ? 1 : 0
  }

  /// Runs one command given as words (`loop habit list`).
  ///
  /// - Parameter words: The command's words, already split by the shell.
  /// - Returns: The exit status: 0 on success, 1 on failure.
  public func run(words: [String]) async -> Int32 {
    await execute(words: words, lineNumber: nil) == .failure ? 1 : 0
  }

  /// Runs one line: splits it into words and executes the command.
  func execute(_ line: String, lineNumber: Int? = nil) async -> Outcome {
    let words: [String]
    do {
      words = try Tokenizer.words(in: line)
    } catch {
      report(CommandError(error.description), lineNumber: lineNumber)
      return .failure
    }
    guard !words.isEmpty else { return .success }
    return await execute(words: words, lineNumber: lineNumber)
  }

  private func execute(words: [String], lineNumber: Int?) async -> Outcome {
    let recording = words.first == ":record" ? nil : self.recording
    recording?.begin(words)
    let outcome = await executeCommand(words: words, lineNumber: lineNumber)
    recording?.end(outcome)
    return outcome
  }

  private func executeCommand(words: [String], lineNumber: Int?) async -> Outcome {
    do {
      let (command, rest) = try CommandTable.command(for: words)
      let invocation = try command.parse(rest)
      if command.endsSession { return .quit }
      if store.state.firstErrorMessage != nil {
        await store.send(.errorsDismissed).finish()
      }
      try await command.run(self, invocation)
      return .success
    } catch {
      report(error, lineNumber: lineNumber)
      return .failure
    }
  }

  /// Prints an error and its hints on standard error; a cancelled command's message is printed
  /// as it is, without `error:`.
  private func report(_ error: CommandError, lineNumber: Int?) {
    guard !error.isCancellation else {
      // NB: at a terminal the key echoes as `^C` where the cursor was; the message starts a
      // line of its own.
      console.printError(configuration.mode == .interactive ? "\n\(error.message)" : error.message)
      return
    }
    var location = ""
    if case .script(let name) = configuration.mode, let lineNumber {
      location = "\(name):\(lineNumber): "
    }
    console.printError("\(location)\(style.red("error:")) \(error.message)")
    for hint in error.hints { console.printError(hint) }
    if let path = configuration.databasePath, StorageFailure.isStorageFailure(error.message) {
      console.printError("the database is '\(path)'")
    }
  }

  /// Sends an action, waits for the effects it started (and the actions they sent), and fails
  /// with the error a feature then shows.
  ///
  /// When the command is cancelled (Ctrl-C), the effects are cancelled, and this waits for them
  /// to wind down (an import's transaction to roll back) before it throws
  /// ``CommandError/cancelled(_:)``.
  func send(_ action: AppFeature.Action) async throws(CommandError) {
    try await finish(store.send(action))
  }

  /// Waits for the effects of an action sent with `store.send` (the command did something
  /// meanwhile, say printed a page while the next one loads), and fails as ``send(_:)`` does.
  func finish(_ task: StoreTask) async throws(CommandError) {
    await withTaskCancellationHandler {
      await task.finish()
    } onCancel: {
      task.cancel()
    }
    if Task.isCancelled { throw .cancelled() }
    if let message = store.state.firstErrorMessage {
      throw CommandError(message)
    }
  }

  /// Sends an action, as ``send(_:)``, and returns the answer it led to: what `answer` finds in
  /// the first action processed meanwhile that it matches (say the client's response), or `nil`
  /// when none did.
  ///
  /// ```swift
  /// let saved = try await session.send(.links(.addLinkSubmitted(draft))) {
  ///   if case .links(.addLinkResponse(.success(let saved))) = $0 { saved } else { nil }
  /// }
  /// ```
  ///
  /// A command reads its result here, from the feature's answer, rather than from a field of
  /// the state kept for it.
  func send<Answer>(
    _ action: AppFeature.Action, answer: @escaping (AppFeature.Action) -> Answer?
  ) async throws(CommandError) -> Answer? {
    var found: Answer?
    answers.watch = { action in
      if found == nil { found = answer(action) }
    }
    defer { answers.watch = nil }
    try await send(action)
    return found
  }

  /// Sends an action that adds one element to a list the session has loaded, and prints
  /// `message` of the element the feature answers with and its short ref, as long as the list's
  /// ids need (nothing when the feature added none).
  ///
  /// - Parameters:
  ///   - action: The action that adds.
  ///   - answer: The element added, from the feature's answer (see ``send(_:answer:)``).
  ///   - id: The element's id.
  ///   - list: The list in the state.
  ///   - ids: The list's ids, in order.
  ///   - refLengths: The cache of the list's ref length.
  ///   - message: The line printed, from the element added and its short ref.
  /// - Throws: ``CommandError`` with the error a feature shows after the action.
  func sendAdding<Element, Added>(
    _ action: AppFeature.Action, answer: @escaping (AppFeature.Action) -> Added?,
    id: (Added) -> UUID, to list: KeyPath<AppFeature.State, IdentifiedArrayOf<Element>>,
    ids: (IdentifiedArrayOf<Element>) -> [UUID],
    refLengths: ReferenceWritableKeyPath<Session, RefLengthCache>,
    message: (Added, String) -> String
  ) async throws(CommandError) {
    guard let added = try await send(action, answer: answer) else { return }
    let length = self[keyPath: refLengths].length(ofIDs: ids(store.state[keyPath: list]))
    console.print(message(added, Ref.short(id(added), length: length)))
  }

  /// Loads a noun's data the first time a command needs it.
  func load(_ noun: Noun) async throws(CommandError) {
    guard !loaded.contains(noun) else { return }
    try await send(noun.appearAction)
    loaded.insert(noun)
  }

  /// Loads a noun's data again, as its list appears.
  func reload(_ noun: Noun) async throws(CommandError) {
    try await send(noun.appearAction)
    loaded.insert(noun)
  }

  /// Asks an alert's question at the prompt, as a yes-or-no question.
  ///
  /// The prompt is the alert's title and message, then `[y/N]`; only an answer starting with
  /// `y` is a yes.
  ///
  /// - Parameter alert: The alert a feature presents.
  /// - Returns: The action of the alert's yes (its first button that does not cancel), or `nil`
  ///   for a no, for no answer, and outside an interactive session.
  func ask<Action>(_ alert: AlertState<Action>) -> Action? {
    guard configuration.mode == .interactive, let reader else { return nil }
    guard let answer = reader.readLine(prompt: "\(alert.question) [y/N] ") else { return nil }
    recording?.recordAnswer(answer)
    guard answer.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y") else {
      return nil
    }
    return alert.yes
  }

  /// Parses `--on YYYY-MM-DD`.
  func day(_ text: String?) throws(CommandError) -> Day? {
    guard let text else { return nil }
    guard let day = Day(text) else {
      throw CommandError(
        "'\(text)' is not a date", hints: ["write dates as YYYY-MM-DD, such as 2025-03-01"])
    }
    return day
  }

  /// Prints a listing: `json` as JSON when `--format json` was given, otherwise the lines
  /// `text` makes.
  func printListing(
    _ input: Invocation, json: some Encodable,
    text: () async throws(CommandError) -> [String]
  ) async throws(CommandError) {
    if input.wantsJSON {
      try printJSON(json)
      return
    }
    for line in try await text() { console.print(line) }
  }

  /// Prints a value as JSON.
  func printJSON(_ value: some Encodable) throws(CommandError) {
    do {
      console.print(try JSONOutput.string(value))
    } catch {
      throw CommandError("the output could not be written as JSON: \(error)")
    }
  }
}

/// Whether `:trace` is on: read by the printing reducer for every action.
final class TraceSwitch: Sendable {
  private let flag = Atomic<Bool>(false)

  var isOn: Bool {
    get { flag.load(ordering: .relaxed) }
    set { flag.store(newValue, ordering: .relaxed) }
  }
}

/// Shows each action the store processed to the command waiting for an answer
/// (``Session/send(_:answer:)``), if any.
///
/// NB: `@unchecked Sendable`: the store's reducers and the session's commands both run on the
/// main actor, the only place ``watch`` is read or written.
final class AnswerTap: @unchecked Sendable {
  /// What the waiting command looks at each action with; `nil` when none waits.
  var watch: ((AppFeature.Action) -> Void)?

  /// Shows an action to the waiting command.
  func show(_ action: AppFeature.Action) {
    watch?(action)
  }
}
