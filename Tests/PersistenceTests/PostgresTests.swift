import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Persistence

/// What only PostgreSQL has: a server that may be down or refuse a password, a connection that
/// may break, other programs' transactions that make the server abort Loop's, and native types
/// other programs read.
@Suite struct PostgresServerTests {
  @Test func aServerThatIsDownIsReportedInOneSentenceNamingItWithoutThePassword() throws {
    let storage = ModelContainer.Storage.postgres("postgresql://loop:pw-7x@127.0.0.1:1/ledger")
    #expect(
      throws: PersistenceError.cannotConnect(
        server: "loop@127.0.0.1:1/ledger", reason: "no server answers there (is it running?)")
    ) {
      try ModelContainer(for: Tag.self, storage: storage)
    }
    #expect(
      PersistenceError.cannotConnect(
        server: "loop@127.0.0.1:1/ledger", reason: "no server answers there (is it running?)"
      ).description
        == "Cannot connect to PostgreSQL at loop@127.0.0.1:1/ledger: no server answers there (is it running?)."
    )
  }

  @Test func aConnectionStringLibpqCannotReadIsReportedWithoutEchoingIt() throws {
    #expect(
      throws: PersistenceError.cannotConnect(
        server: "the server named by the connection string",
        reason: "the connection string is neither a postgresql:// URL nor key=value pairs")
    ) {
      try ModelContainer(for: Tag.self, storage: .postgres("postgresql://u:pw-7x@h/db?nonsense=1"))
    }
  }

  @Test func aStorageDescribesAServerWithoutItsPassword() {
    let storage = ModelContainer.Storage.postgres("postgresql://alice:pw-7x@db.example:5433/loop")
    #expect(storage.description == "PostgreSQL at alice@db.example:5433/loop")
    #expect(String(reflecting: storage).contains("pw-7x") == false)
    #expect("\(Mirror(reflecting: storage).children.map(\.value))".contains("pw-7x") == false)
    #expect(
      ModelContainer.Storage.postgres(
        "host=db.example port=5433 dbname=loop user=bob password=pw-7x"
      )
      .description == "PostgreSQL at bob@db.example:5433/loop")
  }
}

/// The PostgreSQL cases that need the test server.
@Suite(.enabled(if: PostgresTestServer.skipReason == nil))
struct PostgresTests {
  /// A fresh schema on the test server, and a connection string to it with more settings.
  private func schema(
    _ folder: TemporaryFolder, settings: [String: String] = [:],
    parameters: [String: String] = [:]
  ) throws -> (name: String, connection: String) {
    _ = PostgresTestServer.connectionString(for: folder.url)
    let name = try #require(PostgresTestServer.schema(for: folder.url))
    let url = try #require(PostgresTestServer.url)
    return (
      name,
      PostgresTestServer.connectionString(
        url, schema: name, settings: settings, parameters: parameters)
    )
  }

  @Test func aWrongPasswordIsReportedNamingTheUserAndNotThePassword() throws {
    let folder = TemporaryFolder()
    defer { PostgresTestServer.dropSchema(for: folder.url) }
    let role = "loop_pw_\(UUID().uuidString.prefix(8).lowercased())"
    try PostgresTestServer.execute("CREATE ROLE \(role) LOGIN PASSWORD 'right-pw-1'")
    defer { try? PostgresTestServer.execute("DROP ROLE \(role)") }
    let (_, connection) = try schema(
      folder, parameters: ["user": role, "password": "wrong-pw-2"])
    let server = "\(role)@\(try PostgresTestServer.address())/postgres"
    let expected = PersistenceError.cannotConnect(
      server: server, reason: "the server refused the password of user '\(role)'")
    #expect(throws: expected) { try ModelContainer(for: Tag.self, storage: .postgres(connection)) }
    #expect(
      expected.description
        == "Cannot connect to PostgreSQL at \(server): the server refused the password of user "
        + "'\(role)'.")
  }

  @Test func aMissingPasswordIsReportedNamingTheUser() throws {
    let folder = TemporaryFolder()
    defer { PostgresTestServer.dropSchema(for: folder.url) }
    let role = "loop_pw_\(UUID().uuidString.prefix(8).lowercased())"
    try PostgresTestServer.execute("CREATE ROLE \(role) LOGIN PASSWORD 'right-pw-1'")
    defer { try? PostgresTestServer.execute("DROP ROLE \(role)") }
    let (_, connection) = try schema(folder, parameters: ["user": role])
    #expect(
      throws: PersistenceError.cannotConnect(
        server: "\(role)@\(try PostgresTestServer.address())/postgres",
        reason: "the server asks for the password of user '\(role)' and none was given")
    ) {
      try ModelContainer(for: Tag.self, storage: .postgres(connection))
    }
  }

  @Test func aLostConnectionFailsTheTransactionWholeAndTheNextCallConnectsAgain() throws {
    let store = try Store(.postgres, Tag.self)
    let schema = try #require(PostgresTestServer.schema(for: store.folder))
    try store.context.insert(Tag(id: "kept", color: "red"))
    var thrown: PersistenceError?
    do {
      try store.context.transaction { context in
        try context.insert(Tag(id: "lost", color: "blue"))
        try PostgresTestServer.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
            + "'\(schema)' AND pid <> pg_backend_pid()")
        try context.insert(Tag(id: "also lost", color: "green"))
      }
    } catch {
      thrown = error as? PersistenceError
    }
    let error = try #require(thrown)
    guard case .connectionLost(let server, let reason) = error else {
      Issue.record("expected a lost connection, got \(error)")
      return
    }
    #expect(server == "postgres@\(try PostgresTestServer.address())/postgres")
    #expect(
      reason
        == "terminating connection due to administrator command; the transaction in progress "
        + "was not saved")
    #expect(try store.context.fetchAll(Tag.self) == [Tag(id: "kept", color: "red")])
  }

  @Test func aConnectionClosedBetweenCallsIsOpenedAgainBeforeTheNextWrite() throws {
    let store = try Store(.postgres, Tag.self)
    let schema = try #require(PostgresTestServer.schema(for: store.folder))
    try store.context.insert(Tag(id: "before", color: "red"))
    try PostgresTestServer.execute(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = "
        + "'\(schema)' AND pid <> pg_backend_pid()")
    // The server closes the connection a moment later (as after a restart, long ago).
    while try PostgresTestServer.value(
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(schema)'") != "0"
    {
      usleep(10_000)
    }
    // NB: the server process leaves the list just before its end reaches the socket.
    usleep(200_000)
    try store.context.insert(Tag(id: "after", color: "blue"))
    #expect(try store.context.fetchAll(Tag.self).map(\.id) == ["before", "after"])
  }

  @Test func aSerializationFailureRunsTheTransactionAgainFromTheStart() throws {
    let folder = TemporaryFolder()
    defer { PostgresTestServer.dropSchema(for: folder.url) }
    let (name, connection) = try schema(folder)
    let context = ModelContext(try ModelContainer(for: Tag.self, storage: .postgres(connection)))
    let url = try #require(PostgresTestServer.url)
    // Another program's serializable transaction reads the tags, then adds one after Loop's
    // transaction has read them: each read what the other writes, so one must be aborted, and
    // the other program commits first.
    let other = try AdminConnection(PostgresTestServer.connectionString(url, schema: name))
    try other.execute("BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT count(*) FROM tags")
    var attempts = 0
    try context.transaction { context in
      attempts += 1
      let count = try context.fetchCount(FetchDescriptor<Tag>())
      if attempts == 1 {
        try other.execute("INSERT INTO tags (name, color) VALUES ('other', 'grey'); COMMIT")
      }
      try context.insert(Tag(id: "loop", color: "seen \(count)"))
    }
    #expect(attempts == 2)
    #expect(
      try context.fetchAll(Tag.self)
        == [Tag(id: "other", color: "grey"), Tag(id: "loop", color: "seen 1")])
  }

  /// A client's storage turns each failure into its domain's error as it comes (`wraps`): the
  /// transaction the server doomed runs again all the same.
  @Test(arguments: [false, true])
  func aDeadlockRunsTheTransactionAgainFromTheStart(wrappingTheError wraps: Bool) throws {
    struct DomainError: Error { let reason: String }
    func write(_ work: () throws -> Void) throws {
      do {
        try work()
      } catch {
        throw wraps ? DomainError(reason: "\(error)") : error
      }
    }
    let folder = TemporaryFolder()
    defer { PostgresTestServer.dropSchema(for: folder.url) }
    // NB: PostgreSQL aborts the transaction that finds the deadlock, the first whose wait
    // outlasts its deadlock_timeout: Loop's waits first, and the other program looks late.
    let (name, connection) = try schema(folder, settings: ["deadlock_timeout": "1s"])
    let context = ModelContext(try ModelContainer(for: Tag.self, storage: .postgres(connection)))
    try context.insert(Tag(id: "a", color: "white"))
    try context.insert(Tag(id: "b", color: "white"))
    let url = try #require(PostgresTestServer.url)
    let other = try AdminConnection(PostgresTestServer.connectionString(url, schema: name))
    try other.execute(
      "SET deadlock_timeout = '60s'; BEGIN; UPDATE tags SET color = 'other' WHERE name = 'b'")
    let otherDone = Mutex<(any Error)?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let attempts = Mutex(0)
    try context.transaction { context in
      let attempt = attempts.withLock {
        $0 += 1
        return $0
      }
      try write { try context.update(Tag(id: "a", color: "loop")) }
      if attempt == 1 {
        // Once Loop waits for 'b', the other program asks for 'a': each waits for the other.
        Thread {
          usleep(300_000)
          do {
            try other.execute("UPDATE tags SET color = 'other' WHERE name = 'a'; COMMIT")
          } catch {
            otherDone.withLock { $0 = error }
          }
          finished.signal()
        }.start()
      }
      try write { try context.update(Tag(id: "b", color: "loop")) }
    }
    finished.wait()
    #expect(otherDone.withLock { $0 } == nil)
    #expect(attempts.withLock { $0 } >= 2)
    #expect(
      try context.fetchAll(Tag.self) == [Tag(id: "a", color: "loop"), Tag(id: "b", color: "loop")])
  }

  @Test func manyPredicatesOfDifferentShapesKeepEveryStatementWorking() throws {
    let store = try Store(.postgres, Tag.self)
    try store.context.insert(Tag(id: "a", color: "red"))
    // Each list's length is another statement: more than the 64 a connection keeps prepared.
    for length in 1...100 {
      let names = (0..<length).map { $0 == 0 ? "a" : "n\($0)" }
      #expect(
        try store.context.fetchAll(Tag.self, predicate: #Predicate { names.contains($0.id) })
          .map(\.id) == ["a"])
    }
    #expect(try store.context.fetch(Tag.self, id: "a") == Tag(id: "a", color: "red"))
    try store.context.insert(Tag(id: "b", color: "blue"))
    #expect(try store.context.fetchCount(FetchDescriptor<Tag>()) == 2)
  }

  @Test func aConnectionKeepsAtMostItsCacheOfStatementsPreparedOnTheServer() throws {
    let folder = TemporaryFolder()
    defer { PostgresTestServer.dropSchema(for: folder.url) }
    let connection = try PostgresConnection(
      connectionString: PostgresTestServer.connectionString(for: folder.url))
    for number in 0..<200 {
      try connection.run("SELECT \(number)")
    }
    let prepared = try connection.run("SELECT count(*) FROM pg_prepared_statements")
    #expect(prepared.integer(row: 0, column: 0) <= 65)
  }

  @Test func datesUUIDsAndBooleansAreStoredAsPostgreSQLsOwnTypes() throws {
    let store = try Store(.postgres, Item.self)
    let schema = try #require(PostgresTestServer.schema(for: store.folder))
    let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    try store.context.insert(
      Item(id: 1, title: "x", isDone: true, date: date(1.5), dueDate: date(1.0 / 3), uuid: uuid))
    func type(_ column: String) throws -> String? {
      try PostgresTestServer.value(
        "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = "
          + "'\(schema).items'::regclass AND attname = '\(column)'")
    }
    #expect(try type("date") == "timestamp with time zone")
    #expect(try type("uuid") == "uuid")
    #expect(try type("is_done") == "boolean")
    #expect(try type("loop_exact_date") == "double precision")
    func value(_ column: String) throws -> String? {
      try PostgresTestServer.value("SELECT \(column)::text FROM \(schema).items")
    }
    #expect(try value("date") == "2001-01-01 00:00:01.5+00")
    #expect(try value("due_date") == "2001-01-01 00:00:00.333333+00")
    #expect(try value("uuid") == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    #expect(try value("is_done") == "true")
    // The exact seconds are what Loop reads back.
    #expect(try store.context.fetch(Item.self, id: 1)?.dueDate == date(1.0 / 3))
  }

  @Test func textHoldingNULCharactersIsStoredAndComparedAsItIs() throws {
    let store = try Store(.postgres, Tag.self)
    let names = ["a\u{0}b", "a\u{1}", "a", "a\u{0}", "\u{1}\u{0}"]
    for (index, name) in names.enumerated() {
      try store.context.insert(Tag(id: name, color: "\(index)"))
    }
    #expect(
      try store.context.fetchAll(Tag.self, sortBy: [SortDescriptor(\.id)]).map(\.id)
        == names.sorted())
    let wanted = "a\u{0}b"
    #expect(
      try store.context.fetchAll(Tag.self, predicate: #Predicate { $0.id == wanted }).map(\.color)
        == ["0"])
  }
}
