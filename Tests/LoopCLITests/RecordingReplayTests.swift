import AppFeature
import Categories
import Foundation
import LinkClient
import LinkList
import Loop
import Synchronization
import Testing

@testable import LoopCLI

/// Sessions recorded with `loop --record`, and `loop replay`: every recording in `Recordings/`
/// replays as a test of its own, so a recording attached to a bug report becomes a regression
/// test once committed there.
@MainActor
@Suite struct RecordingReplayTests {
  /// The folder of committed recordings.
  nonisolated static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Recordings")

  /// The committed recordings' file names.
  nonisolated static func recordings() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".txt") }.sorted()
  }

  nonisolated static func text(of name: String) throws -> String {
    try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }

  @Test(arguments: recordings())
  func aCommittedRecordingReplaysIdentically(file: String) async throws {
    let outcome = await SessionReplay.replay(try Self.text(of: file), named: file)
    guard case .identical(let commands, let actions) = outcome else {
      Issue.record("'\(file)' did not replay identically: \(outcome)")
      return
    }
    #expect(commands > 0)
    #expect(actions > 0)
  }

  @Test func theCommittedRecordingsCoverEveryDomainAndAnImport() throws {
    let inputs = try Self.recordings().flatMap { try Recording(text: Self.text(of: $0)).inputs }
    for noun in ["link", "category", "habit", "ledger"] {
      #expect(inputs.contains { $0.hasPrefix(noun + " ") }, "no recording of '\(noun)'")
    }
    #expect(inputs.contains { $0.hasPrefix("link import ") })
    #expect(inputs.contains { $0.hasPrefix("ledger import ") })
    let databases = try Self.recordings().filter {
      try !Recording(text: Self.text(of: $0)).values(named: "database").isEmpty
    }
    #expect(!databases.isEmpty, "no recording starts from a database it imports")
  }

  @Test func aRecordingThatNamesItemsByWordsReplaysToTheSameItems() async throws {
    let text = try Self.text(of: "names.txt")
    let inputs = try Recording(text: text).inputs
    #expect(inputs.contains("habit done read"))
    #expect(inputs.contains("link open book"))
    #expect(inputs.contains("ledger update lunch --amount 14"))
    let outcome = await SessionReplay.replay(text, named: "names.txt")
    #expect(outcome == .identical(commands: 17, actions: 48))
  }

  @Test func theReadmeSessionRecordedReplaysIdentically() async throws {
    let folder = try TemporaryFolder()
    let log = Captured()
    let (commands, session) = try ReadmeSessionTests.session(in: folder, log: log)
    try await session.startRecording(to: "readme.txt")
    for command in commands {
      log.append("loop> \(command)\n")
      _ = await session.execute(command)
    }
    session.stopRecording()
    #expect(log.value == (try ReadmeSessionTests.readmeSession()))

    let text = try String(contentsOfFile: folder.path("readme.txt"), encoding: .utf8)
    let outcome = await SessionReplay.replay(text, named: "readme.txt")
    let steps = try Recording(text: text).entries.count {
      if case .step = $0 { true } else { false }
    }
    #expect(outcome == .identical(commands: commands.count, actions: steps))
  }

  @Test func editingOneStateLineMakesTheReplayFailNamingThatStepWithADiff() async throws {
    var lines = try Self.text(of: "habits.txt").split(
      separator: "\n", omittingEmptySubsequences: false
    )
    .map(String.init)
    let edited = try #require(
      lines.firstIndex { $0.hasPrefix("| +") && $0.contains("name: \"Stretch\"") })
    let step = lines[..<edited].filter {
      $0.split(separator: " ").first.map { $0 == "send" || $0 == "receive" } ?? false
    }.count
    let original = lines[edited]
    lines[edited] = original.replacingOccurrences(of: "Stretch", with: "Stretching")
    let outcome = await SessionReplay.replay(lines.joined(separator: "\n"), named: "habits.txt")
    guard case .diverged(let message) = outcome else {
      Issue.record("the edited recording replayed: \(outcome)")
      return
    }
    #expect(message.hasPrefix("The replay diverged from the recording at step \(step), "))
    #expect(message.contains(": the state does not match.\n\n"))
    let marked = original.dropFirst(4)
    #expect(
      message.contains("  − " + marked.replacingOccurrences(of: "Stretch", with: "Stretching")))
    #expect(message.contains("  + " + marked))
    #expect(message.contains("(Recorded: −, Replayed: +)"))
  }

  @Test func aReducerChangedOnPurposeMakesACommittedRecordingFail() async throws {
    // The app, but a link added forgets its category as soon as it is added.
    let forgetful = Reduce<AppFeature.State, AppFeature.Action> { state, action in
      if case .links(.addLinkResponse(.success(let saved))) = action,
        let categoryID = saved.link.categoryID
      {
        state.links.categories.rows.remove(id: categoryID)
      }
      return .none
    }
    let outcome = await SessionReplay.replay(
      try Self.text(of: "links.txt"), named: "links.txt", extraReducer: forgetful)
    guard case .diverged(let message) = outcome else {
      Issue.record("the changed app replayed the recording: \(outcome)")
      return
    }
    #expect(
      message.hasPrefix(
        "The replay diverged from the recording at step 7, during input 2 ('link add "
          + "'Swift book' https://docs.swift.org/book --category reading --memo 'the language'"
          + "'), after AppFeature.Action.links(…: the state does not match."))
    #expect(
      message.hasSuffix(
        """
        : the state does not match.

            AppFeature.State(
              links: LinkList.State(
            … (22 lines)
                ),
                categories: Categories.State(
                  destination: nil,
          −       rows: [
          −         CategorySummary(
          −           category: Category(
          −             id: Category.ID(
          −               rawValue: UUID(A8F4967F-8791-4320-A637-07F758102FA3)
          −             ),
          −             name: "Reading",
          −             createdAt: Date(2026-12-01T03:55:02.368Z)
          −           ),
          −           linkCount: 0
          −         )
          −       ],
          +       rows: [],
                  selectedCategoryID: nil
                ),
                destination: nil,
            … (27 lines)

        (Recorded: −, Replayed: +)

        To fix, find what changed since the recording was made; if the change is meant, record \
        the session again.
        """))
  }

  /// Runs `loop replay` on a file holding `text`, and returns what it printed.
  func replayCommand(_ text: String) async throws -> (output: String, error: String, status: Int32)
  {
    let folder = try TemporaryFolder()
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path("bad.txt")))
    let output = Captured()
    let error = Captured()
    let status = await SessionReplay.main(
      arguments: [folder.path("bad.txt")],
      console: Console(writeOutput: { output.append($0) }, writeError: { error.append($0) }))
    return (
      output.value, error.value.replacingOccurrences(of: folder.path("bad.txt"), with: "bad.txt"),
      status
    )
  }

  @Test(arguments: [
    ("hello\n", "'bad.txt' is not a Loop recording: it does not start with 'loop-recording 1'"),
    (
      "loop-recording 2\nvalue mode script\n",
      "'bad.txt' was recorded by a newer Loop (format 2; this one reads up to 1)"
    ),
    (
      "loop-recording 1\nvalue mode script\ninput habit li",
      "'bad.txt' ends in the middle of line 3: it was cut off while being written"
    ),
  ])
  func aBadRecordingGetsOneClearSentence(text: String, sentence: String) async throws {
    let run = try await replayCommand(text)
    #expect(run.error == "error: \(sentence)\n")
    #expect(run.output == "")
    #expect(run.status == 1)
  }

  @Test func aCommandThatNowFailsGetsOneClearSentence() async throws {
    let text = try Self.text(of: "habits.txt")
    let done = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("input habit done ") })
    let run = try await replayCommand(
      text.replacingOccurrences(of: done + "\n", with: "input habit done zzzz\n"))
    #expect(
      run.error
        == "error: command 3 ('habit done zzzz') now fails: no habit has the ref or name 'zzzz'\n")
    #expect(run.status == 1)
  }

  @Test func anIdenticalReplayIsOneLine() async throws {
    let run = try await replayCommand(try Self.text(of: "ledger.txt"))
    #expect(run.output == "replayed 10 commands, 18 actions: identical\n")
    #expect(run.error == "")
    #expect(run.status == 0)
  }

  @Test func recordInASessionWritesEachCommandAsItEnds() async throws {
    let folder = try TemporaryFolder()
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .interactive, currentDirectory: folder.url.path))
    _ = await session.execute(":record r.txt")
    var previous = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
    for command in ["habit add Walk", "habit list", "habit done zz"] {
      _ = await session.execute(command)
      let text = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
      #expect(text.hasPrefix(previous))
      #expect(text.hasSuffix("value status \(command == "habit done zz" ? 1 : 0)\n"))
      previous = text
    }
    _ = await session.execute(":record off")
    let outcome = await SessionReplay.replay(previous, named: "r.txt")
    guard case .identical(let commands, _) = outcome else {
      Issue.record("the recording did not replay: \(outcome)")
      return
    }
    #expect(commands == 3)
  }

  @Test func recordTellsWhereAndOffTellsWhatWasRecorded() async throws {
    let folder = try TemporaryFolder()
    let result = try await transcript(
      ":record r.txt\nhabit add Walk\n:record off\n:record off\n",
      currentDirectory: folder.url.path)
    #expect(
      result.transcript == """
        > :record r.txt
        Recording into 'r.txt': 'loop replay r.txt' replays it.
        > habit add Walk
        Added habit 'Walk' (910a2de).
        > :record off
        Recorded into 'r.txt'.
        > :record off
        ! test:4: error: nothing is being recorded
        ! start with ':record FILE'

        """)
  }

  @Test func theBinaryRecordsWithRecordAndReplaysWithExitStatusZeroOrOne() throws {
    let folder = try TemporaryFolder()
    let recorded = try runLoop(
      ["--in-memory", "--record", folder.path("r.txt")], input: "habit add Walk\nhabit list\n",
      dataHome: folder.url)
    #expect(recorded.status == 0)
    let text = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
    let steps = try Recording(text: text).entries.count {
      if case .step = $0 { true } else { false }
    }

    let replayed = try runLoop(["replay", folder.path("r.txt")], dataHome: folder.url)
    #expect(replayed.output == "replayed 2 commands, \(steps) actions: identical\n")
    #expect(replayed.error == "")
    #expect(replayed.status == 0)

    try Data(text.replacingOccurrences(of: "\"Walk\"", with: "\"Run\"").utf8)
      .write(to: URL(fileURLWithPath: folder.path("r.txt")))
    let diverged = try runLoop(["replay", folder.path("r.txt")], dataHome: folder.url)
    #expect(diverged.output.hasPrefix("The replay diverged from the recording at step "))
    #expect(diverged.status == 1)
  }

  @Test func aOneShotCommandWithANewlineInAnArgumentIsRecordedAndReplaysIdentically() throws {
    let folder = try TemporaryFolder()
    let recorded = try runLoop(
      [
        "--in-memory", "--record", folder.path("r.txt"), "link", "add", "two\nlines",
        "https://example.com",
      ],
      dataHome: folder.url)
    #expect(recorded.status == 0)
    #expect(recorded.output.hasPrefix("Added link 'two\nlines' ("))
    let text = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
    #expect(text.contains("| link add 'two\n| lines' https://example.com\n"))

    let replayed = try runLoop(["replay", folder.path("r.txt")], dataHome: folder.url)
    #expect(replayed.output.hasPrefix("replayed 1 command, "))
    #expect(replayed.output.hasSuffix(" actions: identical\n"))
    #expect(replayed.status == 0)
  }

  @Test func aReplayRecordsTheSessionAgainAsTheAppRunsNow() async throws {
    let folder = try TemporaryFolder()
    let original = folder.path("links.txt")
    let again = folder.path("again.txt")
    try Self.text(of: "links.txt").write(toFile: original, atomically: true, encoding: .utf8)
    let output = Captured()
    let status = await SessionReplay.main(
      arguments: [original, "--record", again],
      console: Console(writeOutput: { output.append($0) }, writeError: { output.append($0) }))
    #expect(status == 0)
    #expect(output.value == "recorded 14 commands again into '\(again)'\n")
    // NB: the same dates, ids and readings are drawn, and the app is unchanged: the same file.
    #expect(try String(contentsOfFile: again, encoding: .utf8) == Self.text(of: "links.txt"))
  }

  @Test func aRecordingMadeAgainIntoItselfReplacesIt() async throws {
    let folder = try TemporaryFolder()
    let file = folder.path("links.txt")
    try Self.text(of: "links.txt").write(toFile: file, atomically: true, encoding: .utf8)
    let outcome = await SessionReplay.recordAgain(
      try String(contentsOfFile: file, encoding: .utf8), named: file, into: file)
    #expect(outcome == .identical(commands: 14, actions: 0))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.text(of: "links.txt"))
    #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
  }

  @Test func aRecordingThatCannotReplaceItsTargetSaysWhyAndLeavesTheTarget() async throws {
    let folder = try TemporaryFolder()
    let target = folder.path("taken")
    try FileManager.default.createDirectory(
      atPath: target + "/inside", withIntermediateDirectories: true)
    let outcome = await SessionReplay.recordAgain(
      try Self.text(of: "links.txt"), named: "links.txt", into: target)
    #expect(outcome == .failed("the recording '\(target)' cannot be written: Is a directory"))
    #expect(FileManager.default.fileExists(atPath: target + "/inside"))
    #expect(!FileManager.default.fileExists(atPath: target + ".partial"))
  }

  @Test func recordingAgainStopsAtACommandThatNowEndsOtherwise() async throws {
    let folder = try TemporaryFolder()
    let again = folder.path("again.txt")
    let text = try Self.text(of: "links.txt").replacingOccurrences(
      of: "input link list\n", with: "input link lst\n")
    let outcome = await SessionReplay.recordAgain(text, named: "links.txt", into: again)
    guard case .failed(let sentence) = outcome else {
      Issue.record("recorded again: \(outcome)")
      return
    }
    #expect(sentence.hasPrefix("command "))
    #expect(sentence.contains("('link lst') now fails: unknown command 'link lst'"))
    #expect(!FileManager.default.fileExists(atPath: again))
    #expect(!FileManager.default.fileExists(atPath: again + ".partial"))
  }

  @Test func recordIsAnOptionOfLoop() throws {
    let options = try LaunchOptions(arguments: ["--record", "r.txt", "habit", "list"])
    #expect(options.recordPath == "r.txt")
    #expect(options.command == ["habit", "list"])
  }

  @Test func replayWithoutOneFileShowsItsUsage() async {
    let error = Captured()
    let status = await SessionReplay.main(
      arguments: [], console: Console(writeOutput: { _ in }, writeError: { error.append($0) }))
    #expect(
      error.value
        == "error: 'loop replay' takes one recording file\nusage: loop replay FILE [--record NEW]\n"
    )
    #expect(status == 2)
  }

  @Test func replayReadsItsWordsWithTheCommandsParser() async {
    let error = Captured()
    let status = await SessionReplay.main(
      arguments: ["r.txt", "--record"],
      console: Console(writeOutput: { _ in }, writeError: { error.append($0) }))
    #expect(
      error.value
        == "error: the option '--record' needs a value\nusage: loop replay FILE [--record NEW]\n")
    #expect(status == 2)
  }

  @Test func aRecordingThatCannotBeWrittenStopsLoopBeforeItRuns() async throws {
    let folder = try TemporaryFolder()
    let error = Captured()
    let status = await Launcher.main(
      arguments: ["--in-memory", "--record", folder.path("missing/r.txt"), "habit", "list"],
      environment: [:],
      console: Console(writeOutput: { _ in }, writeError: { error.append($0) }))
    #expect(
      error.value
        == """
        error: the recording '\(folder.path("missing/r.txt"))' cannot be written: \
        No such file or directory

        """)
    #expect(status == 1)
  }

  @Test func answersToConfirmationsAreRecordedAndHandedBackInTheReplay() async throws {
    let folder = try TemporaryFolder()
    let result = try await transcript(
      ":record r.txt\nhabit add Walk\nhabit add Run\nhabit rm 91\nn\nhabit rm 91\ny\n:record off\n",
      mode: .interactive, currentDirectory: folder.url.path)
    #expect(result.transcript.contains("Kept 'Walk'."))
    #expect(result.transcript.contains("Deleted 'Walk'."))
    let text = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
    #expect(try Recording(text: text).values(named: "answer") == ["n", "y"])
    let outcome = await SessionReplay.replay(text, named: "r.txt")
    guard case .identical(let commands, _) = outcome else {
      Issue.record("the recording did not replay: \(outcome)")
      return
    }
    #expect(commands == 4)

    // Answered the other way, the replay deletes the habit the recording kept.
    let flipped = text.replacingOccurrences(of: "value answer n\n", with: "value answer y\n")
    guard case .diverged(let message) = await SessionReplay.replay(flipped, named: "r.txt") else {
      Issue.record("the flipped answer replayed")
      return
    }
    #expect(message.contains("during input 3 ('habit rm 91')"))
  }

  @Test func answersToACategorysDeletionAreRecordedAndHandedBackInTheReplay() async throws {
    let folder = try TemporaryFolder()
    let result = try await transcript(
      ":record r.txt\ncategory add Work\nlink add A https://a.example --category Work\n"
        + "category rm Work\nn\ncategory rm Work\ny\n:record off\n",
      mode: .interactive, currentDirectory: folder.url.path)
    #expect(result.transcript.contains("Kept category 'Work'."))
    #expect(result.transcript.contains("Deleted category 'Work': its link is uncategorized now."))
    let text = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
    #expect(try Recording(text: text).values(named: "answer") == ["n", "y"])
    let outcome = await SessionReplay.replay(text, named: "r.txt")
    guard case .identical(let commands, _) = outcome else {
      Issue.record("the recording did not replay: \(outcome)")
      return
    }
    #expect(commands == 4)
  }
}

extension RecordingReplayTests {
  @Test func aRecordingMadeWithAProgressBarReplaysIdentically() async throws {
    let folder = try TemporaryFolder()
    try Data(bookmarksFile.utf8).write(to: URL(fileURLWithPath: folder.path("bookmarks.html")))
    var environment = try transcriptEnvironment()
    environment.continuousClock = TickingClock()
    let session = Session(
      environment: environment, console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(
        mode: .interactive, showsProgress: true, currentDirectory: folder.url.path))
    for command in [":record r.txt", "link import bookmarks.html", ":record off"] {
      #expect(await session.execute(command) == .success)
    }
    // NB: the progress bar's readings are not the import's: the recording holds the import's
    // two only, which the replay draws again.
    let text = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
    #expect(try Recording(text: text).values(named: "clock").count == 2)
    let outcome = await SessionReplay.replay(text, named: "r.txt")
    guard case .identical(let commands, _) = outcome else {
      Issue.record("the recording did not replay: \(outcome)")
      return
    }
    #expect(commands == 1)
  }
}

/// A clock that moves a millisecond more each time it is read (1, 4, 9 … ms), and never sleeps:
/// each pair of readings is apart by its own duration.
private final class TickingClock: Clock, Sendable {
  private let readings = Mutex<Int64>(0)

  var now: ContinuousClock.Instant {
    let count = readings.withLock {
      $0 += 1
      return $0
    }
    return start.advanced(by: .milliseconds(count * count))
  }

  private let start = ContinuousClock.now

  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    await Task.yield()
  }
}

extension RecordingReplayTests {
  @Test(arguments: [
    ["link", "add", "Swift book", "https://swift.org/?a=1&b=2"],
    ["habit", "add", ""],
    ["ledger", "add", "expense", "12.50", "Bob's lunch"],
    ["link", "search", #"say "hi" \ there"#],
    ["link", "add", "#not a comment", "tab\there"],
    ["link", "add", "two\nlines", "https://example.com"],
  ])
  func aRecordedCommandReadsBackAsTheSameWords(words: [String]) throws {
    let line = words.map(SessionRecording.quoted).joined(separator: " ")
    #expect(try Tokenizer.words(in: line) == words)
  }
}
