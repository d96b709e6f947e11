import AppFeature
import Foundation
import Loop

extension Session {
  /// What running one line came to.
  enum Outcome: Equatable {
    case success
    case failure
    case quit
  }

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
    if configuration.mode == .interactive { completionNames.update(from: self) }
    return outcome
  }

  private func executeCommand(words: [String], lineNumber: Int?) async -> Outcome {
    do {
      let (command, rest) = try CommandTable.command(for: words)
      if rest.contains(where: Help.helpWords.contains) {
        console.print(Help.detail(of: command, style: style))
        return .success
      }
      let invocation = try command.parse(rest)
      if command.endsSession { return .quit }
      _ = answers.takeFailure()
      try await invocation.run(self)
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
}
