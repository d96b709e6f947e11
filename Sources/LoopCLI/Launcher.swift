import Foundation
import Interchange
import Loop
import Persistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `loop` executable's options, read from its arguments.
///
/// Options come first; the first word that is not an option starts a one-shot command, and the
/// words after it are that command's (`loop --db x.sqlite ledger add expense 5 --on 2025-03-01`).
public struct LaunchOptions: Equatable, Sendable {
  /// What the process is asked to do.
  public enum Request: Equatable, Sendable {
    /// Run the REPL (interactive, script or one-shot).
    case run
    /// Print the help text.
    case help
    /// Print the version.
    case version
  }

  /// What to do.
  public var request: Request = .run
  /// `--db PATH` or `--db URL`: the database file, or a PostgreSQL server's
  /// `postgresql://` URL, instead of the default file.
  public var databasePath: String?
  /// `--in-memory`: keep nothing.
  public var inMemory = false
  /// `--script FILE`: run the file's commands.
  public var scriptPath: String?
  /// `--keep-going`: in a script, run the commands after a failing one.
  public var keepGoing = false
  /// `--record FILE`: record the session into FILE, for `loop replay FILE`.
  public var recordPath: String?
  /// The one-shot command's words, or empty.
  public var command: [String] = []

  /// The usage line of `loop`.
  public static let usage =
    "usage: loop [--db PATH|URL | --in-memory] [--script FILE] [--keep-going] [--record FILE] "
    + "[<noun> <verb> ... | replay FILE]"

  /// Reads the options from the process arguments (without the executable's name), with the
  /// parser of the REPL's commands (``ParsedWords``).
  ///
  /// - Parameter arguments: The arguments.
  /// - Throws: ``LaunchError`` for an unknown or repeated option, a missing value, a flag given
  ///   a value, `--db` with `--in-memory`, or `--script` with a command.
  public init(arguments: [String]) throws(LaunchError) {
    let words: ParsedWords
    do throws(ParseError) {
      words = try ParsedWords(
        parsing: arguments, declarations: Self.parameters.flatMap(\.declarations),
        optionsEndAtFirstArgument: true)
    } catch {
      throw LaunchError(error)
    }
    do throws(CommandError) {
      if try Self.help.value(in: words) {
        request = .help
      } else if try Self.version.value(in: words) {
        request = .version
      }
      databasePath = try Self.database.value(in: words)
      inMemory = try Self.inMemoryFlag.value(in: words)
      scriptPath = try Self.script.value(in: words)
      keepGoing = try Self.keepGoingFlag.value(in: words)
      recordPath = try Self.record.value(in: words)
    } catch {
      throw LaunchError(description: error.message)
    }
    command = words.rest
    if inMemory, databasePath != nil { throw .conflicting("--db", "--in-memory") }
    if scriptPath != nil, !command.isEmpty { throw .conflicting("--script", "a command") }
  }

  // NB: each help line is what `loop --help` prints beside the option, its lines broken where
  // they are to be (``Launcher/helpText``).
  private static let database = Option(
    "db", valueName: "PATH|URL",
    help: """
      the database file (default: $XDG_DATA_HOME/loop/loop.sqlite,
      or ~/.local/share/loop/loop.sqlite), or a PostgreSQL database:
      postgresql://user@host:port/name (LOOP_DATABASE_URL names one,
      or a file, when --db does not)
      """)
  private static let inMemoryFlag = Option(
    flag: "in-memory", help: "keep nothing: a database in memory only")
  private static let script = Option(
    "script", valueName: "FILE", help: "run the commands in FILE")
  private static let keepGoingFlag = Option(
    flag: "keep-going",
    help: "in a script, run the commands after a failing one (exit status 1)")
  private static let record = Option(
    "record", valueName: "FILE",
    help: """
      record the session into FILE; 'loop replay FILE' replays it and
      checks every action and state (exit status 1 at the first difference);
      'loop replay FILE --record NEW' records it again as the app runs now
      """)
  private static let version = Option(flag: "version", help: "print the version")
  private static let help = Option(flag: "help", aliases: ["-h"], help: "print this help")

  /// What the options are read by, in the order `loop --help` lists them.
  private static let parameters: [any Parameter] = [
    database, inMemoryFlag, script, keepGoingFlag, record, version, help,
  ]

  /// The lines of `loop --help` that list the options: each option, then its help, its later
  /// lines under the first.
  static var optionLines: [String] {
    let options = parameters.flatMap(\.declarations)
    let width = options.map(\.synopsis.count).max() ?? 0
    return options.flatMap { option in
      let lines = option.help.split(separator: "\n")
      let synopsis = option.synopsis
      return lines.enumerated().map { index, line in
        let start = index == 0 ? synopsis : ""
        return "  " + start + String(repeating: " ", count: width - start.count) + "  " + line
      }
    }
  }
}

/// A mistake in the `loop` executable's arguments.
public struct LaunchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A sentence for the user, such as `unknown option '--frobnicate'`.
  public var description: String

  /// An error with this sentence.
  init(description: String) {
    self.description = description
  }

  /// The parser's error, in the words the REPL uses for the same mistakes.
  init(_ error: ParseError) {
    self.init(description: error.description)
  }

  /// Two options (or an option and a command) that cannot go together.
  static func conflicting(_ first: String, _ second: String) -> LaunchError {
    LaunchError(description: "give either \(first) or \(second), not both")
  }
}

/// What the `loop` executable does: read the options, open the database, run the REPL.
public enum Launcher {
  /// The version `--version` prints.
  public static let version = "0.1.0"

  /// Runs `loop` with its process arguments and returns the exit status.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, without the executable's name.
  ///   - environment: The process's environment (`XDG_DATA_HOME`, `HOME`, `NO_COLOR`,
  ///     `LOOP_DATABASE_URL`).
  ///   - console: Where output and errors go.
  /// - Returns: 0 on success, 1 when a command or the database failed, 2 for bad arguments.
  @MainActor
  public static func main(
    arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
    console: Console = .standard
  ) async -> Int32 {
    let options: LaunchOptions
    do {
      options = try LaunchOptions(arguments: arguments)
    } catch {
      console.printError("error: \(error)")
      console.printError(LaunchOptions.usage)
      return 2
    }
    switch options.request {
    case .help:
      console.print(helpText)
      return 0
    case .version:
      console.print("loop \(version)")
      return 0
    case .run:
      break
    }
    if options.command.first == "replay" {
      return await SessionReplay.main(
        arguments: Array(options.command.dropFirst()), console: console)
    }

    // NB: the script is read before the database opens or a recording starts, so a script that
    // cannot be read leaves no new file behind.
    var scriptText: String?
    if let script = options.scriptPath {
      guard let text = console.readText(ofFile: script) else { return 1 }
      scriptText = text
    }

    let defaultPath = ModelContainer.defaultFilePath(environment: environment)
    let storage = Self.storage(options, environment: environment, defaultPath: defaultPath)
    var path: String?
    if case .file(let file) = storage { path = file }
    let existed = path.map { FileManager.default.fileExists(atPath: $0) } ?? false
    let container: ModelContainer
    do {
      container = try ModelContainer(for: AppEnvironment.models, storage: storage)
    } catch {
      guard case .postgres = storage else {
        console.printError(
          "error: the database '\(path ?? "in memory")' cannot be opened: \(error)")
        console.printError("it was left as it is; choose another file with --db PATH")
        return 1
      }
      console.printError("error: \(error)")
      console.printError(
        "nothing was changed; choose another database with --db or LOOP_DATABASE_URL")
      return 1
    }
    if let path {
      // NB: after opening, so that a file that is no database, or a folder, is not called one;
      // what the container created is private, so only what was there already is warned about.
      let dataFolder = PrivateFile.folder(of: defaultPath)
      for warning in PrivacyWarning.lines(database: path, dataFolder: dataFolder) {
        console.printError(warning)
      }
    }

    let isInteractive =
      options.command.isEmpty && options.scriptPath == nil && Terminal.isTerminal(STDIN_FILENO)
    let mode: Session.Configuration.Mode
    if !options.command.isEmpty {
      mode = .oneShot
    } else if let script = options.scriptPath {
      mode = .script(name: script)
    } else if isInteractive {
      mode = .interactive
    } else {
      mode = .script(name: "stdin")
    }
    var configuration = Session.Configuration(
      mode: mode, keepGoing: options.keepGoing,
      usesColor: Terminal.usesColor(STDOUT_FILENO, environment: environment),
      databasePath: storage == .inMemory ? nil : storage.description,
      showsProgress: Terminal.usesColor(STDERR_FILENO, environment: environment),
      // NB: only a person at a terminal gets a cancelled command and the prompt back; in a
      // script or a one-shot command SIGINT keeps ending the process (status 130 in a shell),
      // and a transaction it interrupts is rolled back when the file is next opened.
      interrupts: isInteractive ? .installed : nil)
    configuration.width = Terminal.width(STDOUT_FILENO, environment: environment)
    let session = Session(
      environment: .live(context: ModelContext(container)), console: console,
      configuration: configuration)

    if let recordPath = options.recordPath {
      do {
        try await session.startRecording(to: recordPath)
      } catch {
        console.printError("error: \(error.message)")
        return 1
      }
    }
    defer { session.stopRecording() }
    if !options.command.isEmpty {
      return await session.run(words: options.command)
    }
    if let scriptText {
      return await session.run(ScriptedLineReader(text: scriptText))
    }
    guard isInteractive else {
      return await session.run(PlainLineReader())
    }
    console.print(Self.greeting(storage, existed: existed))
    console.print("Type 'help' for the commands, Ctrl-D to leave.")
    let historyPath = PrivateFile.joined(PrivateFile.folder(of: defaultPath), "history")
    let reader: any LineReader =
      EditLineReader.load(
        historyPath: historyPath,
        completions: { [names = session.completionNames] in
          CommandTable.completions(after: $0, prefix: $1) { names.names(of: $0) }
        }) ?? PlainLineReader()
    return await session.run(reader)
  }

  /// The line an interactive `loop` starts with: its version and where the data is kept (a
  /// PostgreSQL server as `user@host:port/database`, never with its password).
  static func greeting(_ storage: ModelContainer.Storage, existed: Bool) -> String {
    switch storage {
    case .file(let path) where existed: "loop \(version): your data is in '\(path)'."
    case .file(let path): "loop \(version): your data will be kept in '\(path)' (new)."
    case .postgres: "loop \(version): your data is in \(storage)."
    case .inMemory: "loop \(version): your data is in memory only; nothing is kept."
    }
  }

  /// Where `loop` keeps its data: memory for `--in-memory`, else what `--db` names, else what
  /// `LOOP_DATABASE_URL` names, else the default file; a `postgresql://` (or `postgres://`) URL
  /// names a PostgreSQL server, anything else a file.
  static func storage(
    _ options: LaunchOptions, environment: [String: String], defaultPath: String
  ) -> ModelContainer.Storage {
    if options.inMemory { return .inMemory }
    let named =
      options.databasePath ?? environment["LOOP_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    guard let named else { return .file(defaultPath) }
    let isURL = named.hasPrefix("postgresql://") || named.hasPrefix("postgres://")
    return isURL ? .postgres(named) : .file(named)
  }

  /// What `loop --help` prints.
  static var helpText: String {
    """
    loop: your links, categories, habits and ledger, from the terminal.

    \(LaunchOptions.usage)

    Without a command, loop reads commands: at a terminal with a prompt, line editing and
    history; from a pipe or --script FILE one per line, stopping at the first that fails.
    With a command (loop habit list), it runs just that one.

    options:
    \(LaunchOptions.optionLines.joined(separator: "\n"))

    Type 'help' in loop for its commands.
    """
  }
}

extension Console {
  /// The text of a file the user named (a script, a recording), or `nil` after printing why it
  /// cannot be read, in the words `import` uses for the same problems (no such file, a folder,
  /// permission denied, too large), or that it is not UTF-8 text.
  func readText(ofFile path: String) -> String? {
    do {
      let data = try ImportFile.read(atPath: path)
      guard let text = String(validating: data, as: UTF8.self) else {
        printError("error: '\(path)' is not UTF-8 text.")
        return nil
      }
      return text
    } catch {
      printError("error: \(error.description)")
      return nil
    }
  }
}
