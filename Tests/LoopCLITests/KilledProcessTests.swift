import Foundation
import HabitClient
import LedgerClient
import LinkClient
import LoopCLI
import LoopTesting
import Persistence
import TestSupport
import Testing

/// `loop` killed with `SIGKILL` at random moments, again and again, on one file (or one
/// PostgreSQL database): every write it acknowledged is there, the database is sound, and the
/// command it was running when killed took effect whole or not at all.
@Suite(.serialized) struct KilledProcessTests {
  @Test(arguments: Backend.persistent)
  func everyAcknowledgedWriteSurvivesSIGKILLAndNoCommandIsHalfApplied(_ backend: Backend) throws {
    let folder = try TemporaryFolder()
    let db = folder.database(backend)
    var generator = ScriptGenerator(seed: 15)
    var books = Books()
    // How long `loop` takes to start and answer a first command on this machine (a debug build,
    // a sanitizer, a busy machine): the kills are spread over that and 400 ms more, from just
    // after the start (the file being opened) to a few dozen commands in.
    let started = Date()
    let first = try LoopProcess(["--db", db], dataHome: folder.url)
    let command = generator.command(for: books)
    try first.send(command.line)
    let answer = try #require(first.output.next(before: Date(timeIntervalSinceNow: 120)))
    #expect(answer.hasPrefix(command.acknowledgment))
    command.apply(&books, answer)
    #expect(try first.finish() == 0)
    let window = Int(Date().timeIntervalSince(started) * 1_000) + 400
    var (acknowledged, killedInFlight, foundApplied) = (1, 0, 0)
    for round in 1...24 {
      let process = try LoopProcess(["--db", db, "--keep-going"], dataHome: folder.url)
      let deadline = Date(timeIntervalSinceNow: Double(generator.int(20...window)) / 1_000)
      var inFlight: ScriptGenerator.Command?
      while Date() < deadline {
        let command = generator.command(for: books)
        try process.send(command.line)
        guard let answer = process.output.next(before: deadline) else {
          inFlight = command
          break
        }
        guard answer.hasPrefix(command.acknowledgment) else {
          process.kill()
          let errors = process.errors.rest()
          Issue.record("round \(round): '\(command.line)' answered '\(answer)', errors: \(errors)")
          return
        }
        command.apply(&books, answer)
        acknowledged += 1
      }
      process.kill()
      try waitForTheServerToEndTheKilledSessions(of: backend, folder: folder)
      let stored = try Books(reading: folder.storage(backend))
      var applied = books
      inFlight?.apply(&applied, nil)
      let what = inFlight.map { "'\($0.line)' in flight" } ?? "between commands"
      if inFlight != nil { killedInFlight += 1 }
      if stored.lines == applied.lines, inFlight != nil {
        books = applied
        foundApplied += 1
      }
      guard stored.lines == books.lines else {
        let message =
          "round \(round), killed \(what): the file holds \(stored.lines), acknowledged "
          + "\(books.lines)"
        Issue.record(Comment(rawValue: message))
        return
      }
    }
    // NB: more than one command a round on average, so the kills land at many points.
    #expect(acknowledged > 25)
    print(
      "KilledProcessTests (\(backend)): \(acknowledged) commands acknowledged; killed 24 times, "
        + "\(killedInFlight) with a command in flight, \(foundApplied) of them applied")
  }
}

extension KilledProcessTests {
  /// On PostgreSQL, waits until the server has ended the killed process's sessions.
  ///
  /// NB: a COMMIT the process sent just before it was killed still runs on the server, which
  /// notices the closed connection only afterwards: read at once, the database could show the
  /// command not applied, then applied by the next round.
  func waitForTheServerToEndTheKilledSessions(of backend: Backend, folder: TemporaryFolder) throws {
    guard backend == .postgres else { return }
    let schema = try #require(PostgresTestServer.schema(for: folder.url))
    let deadline = Date(timeIntervalSinceNow: 30)
    while try PostgresTestServer.value(
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(schema)'") != "0"
    {
      guard Date() < deadline else {
        Issue.record("the server kept the killed process's sessions for 30 s")
        return
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
  }

  /// What the file must hold, kept from the commands `loop` acknowledged: categories, links (by
  /// address), habits (by name) and transactions (by memo), each with the ref `loop` printed for
  /// it (`nil` when it was added by a command killed before it answered).
  struct Books {
    struct LinkEntry {
      var ref: String?
      var title: String
      var category: String?
      var isFavorite = false
      var comments = 0
    }

    struct HabitEntry {
      var ref: String?
      var isDone = false
    }

    struct LedgerEntry {
      var ref: String?
      var kind: String
      var cents: Int64
    }

    var categories: Set<String> = []
    var links: [String: LinkEntry] = [:]
    var habits: [String: HabitEntry] = [:]
    var ledger: [String: LedgerEntry] = [:]

    init() {}

    /// What the database holds, after checking it is sound (a file's `PRAGMA integrity_check`
    /// answers `ok`).
    init(reading storage: ModelContainer.Storage) throws {
      let container = try ModelContainer(for: AppEnvironment.models, storage: storage)
      try container.checkIntegrity()
      let context = ModelContext(container)
      let categories = try context.fetchAll(Category.self)
      let names = Dictionary(uniqueKeysWithValues: categories.map { ($0.id, $0.name) })
      self.categories = Set(categories.map(\.name))
      let comments = try context.fetchAll(Comment.self)
      for link in try context.fetchAll(Link.self) {
        links[link.url.absoluteString] = LinkEntry(
          title: link.title, category: link.categoryID.flatMap { names[$0] },
          isFavorite: link.isFavorite, comments: comments.count { $0.linkID == link.id })
      }
      let completions = try context.fetchAll(Completion.self)
      for habit in try context.fetchAll(Habit.self) {
        habits[habit.name] = HabitEntry(isDone: completions.contains { $0.habitID == habit.id })
      }
      for transaction in try context.fetchAll(LedgerTransaction.self) {
        ledger[transaction.memo] = LedgerEntry(
          kind: transaction.kind.rawValue, cents: transaction.amount.minorUnits)
      }
    }

    /// Everything but the refs, one sorted line a model, to compare.
    var lines: [String] {
      let lines =
        categories.map { "category \($0)" }
        + links.map { url, link in
          "link \(url) '\(link.title)' in \(link.category ?? "-") fav \(link.isFavorite) "
            + "comments \(link.comments)"
        }
        + habits.map { name, habit in "habit \(name) done \(habit.isDone)" }
        + ledger.map { memo, entry in "ledger \(memo) \(entry.kind) \(entry.cents)" }
      return lines.sorted()
    }
  }

  /// Mixed commands for `loop`, each valid for the state the books describe, from a seed.
  struct ScriptGenerator {
    struct Command {
      /// The line to type.
      var line: String
      /// How `loop`'s answer starts when the command succeeds.
      var acknowledgment: String
      /// What the command does to the books, given its answer (`nil` when it was killed before
      /// it answered, so no ref is known).
      var apply: (inout Books, String?) -> Void
    }

    private var random: SplitMix64
    private var serial = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    private mutating func pick<T>(_ values: [T]) -> T? {
      values.isEmpty ? nil : values[int(0...values.count - 1)]
    }

    private mutating func next() -> Int {
      serial += 1
      return serial
    }

    /// The ref an answer ends with (`4b8b7a8` in `Added link 'A' (4b8b7a8).`).
    private static func ref(in answer: String?) -> String? {
      guard let answer, answer.hasSuffix(")."), let open = answer.lastIndex(of: "(") else {
        return nil
      }
      return String(answer[answer.index(after: open)..<answer.index(answer.endIndex, offsetBy: -2)])
    }

    // swift-format-ignore: FunctionBodyLength
    mutating func command(for books: Books) -> Command {
      let links = books.links.filter { $0.value.ref != nil }.sorted { $0.key < $1.key }
      let habits = books.habits.filter { $0.value.ref != nil }.sorted { $0.key < $1.key }
      let ledger = books.ledger.filter { $0.value.ref != nil }.sorted { $0.key < $1.key }
      let categories = books.categories.sorted()
      switch int(0...13) {
      case 0:
        let name = "Cat \(next())"
        return Command(line: "category add '\(name)'", acknowledgment: "Added category") {
          books, _ in
          books.categories.insert(name)
        }
      case 1 where !categories.isEmpty:
        // Deletes the category and takes its links out of it: one transaction.
        let name = pick(categories) ?? ""
        return Command(line: "category rm '\(name)' --yes", acknowledgment: "Deleted category") {
          books, _ in
          books.categories.remove(name)
          for (url, link) in books.links where link.category == name {
            books.links[url]?.category = nil
          }
        }
      case 2, 3:
        let number = next()
        let (title, url) = ("Page \(number)", "https://k.example/\(number)")
        let category = int(0...1) == 0 ? pick(categories) : nil
        let option = category.map { " --category '\($0)'" } ?? ""
        return Command(line: "link add '\(title)' \(url)\(option)", acknowledgment: "Added link") {
          books, answer in
          books.links[url] = Books.LinkEntry(
            ref: Self.ref(in: answer), title: title, category: category)
        }
      case 4 where !links.isEmpty:
        let (url, link) = links[int(0...links.count - 1)]
        let title = "Renamed \(next())"
        return Command(
          line: "link update \(link.ref ?? "") --title '\(title)'", acknowledgment: "Updated"
        ) { books, _ in books.links[url]?.title = title }
      case 5 where !links.isEmpty:
        let (url, link) = links[int(0...links.count - 1)]
        return Command(
          line: "link \(link.isFavorite ? "unfav" : "fav") \(link.ref ?? "")", acknowledgment: "'"
        ) { books, _ in books.links[url]?.isFavorite = !link.isFavorite }
      case 6 where !links.isEmpty:
        let (url, link) = links[int(0...links.count - 1)]
        return Command(
          line: "link comment \(link.ref ?? "") 'Note \(next())'", acknowledgment: "Commented on"
        ) { books, _ in books.links[url]?.comments += 1 }
      case 7 where !links.isEmpty:
        // Deletes the link and its comments: one transaction.
        let (url, link) = links[int(0...links.count - 1)]
        return Command(line: "link rm \(link.ref ?? "")", acknowledgment: "Deleted") { books, _ in
          books.links[url] = nil
        }
      case 8:
        let name = "Habit \(next())"
        return Command(line: "habit add '\(name)'", acknowledgment: "Added habit") {
          books, answer in
          books.habits[name] = Books.HabitEntry(ref: Self.ref(in: answer))
        }
      case 9 where !habits.isEmpty:
        let (name, habit) = habits[int(0...habits.count - 1)]
        return Command(
          line: "habit \(habit.isDone ? "undo" : "done") \(habit.ref ?? "")",
          acknowledgment: habit.isDone ? "Undone" : "Done"
        ) { books, _ in books.habits[name]?.isDone = !habit.isDone }
      case 10, 11:
        let memo = "Memo \(next())"
        let kind = int(0...1) == 0 ? "income" : "expense"
        let cents = Int64(int(1...99_999))
        return Command(
          line:
            "ledger add \(kind) \(cents / 100).\(String(format: "%02d", cents % 100)) '\(memo)'",
          acknowledgment: "Added \(kind)"
        ) { books, answer in
          books.ledger[memo] = Books.LedgerEntry(
            ref: Self.ref(in: answer), kind: kind, cents: cents)
        }
      case 12 where !ledger.isEmpty:
        let (memo, entry) = ledger[int(0...ledger.count - 1)]
        let cents = Int64(int(1...999)) * 100
        return Command(
          line: "ledger update \(entry.ref ?? "") --amount \(cents / 100)",
          acknowledgment: "Updated"
        ) { books, _ in books.ledger[memo]?.cents = cents }
      case 13 where !ledger.isEmpty:
        let (memo, entry) = ledger[int(0...ledger.count - 1)]
        return Command(line: "ledger rm \(entry.ref ?? "")", acknowledgment: "Deleted") {
          books, _ in
          books.ledger[memo] = nil
        }
      default:
        return command(for: books)
      }
    }
  }
}
