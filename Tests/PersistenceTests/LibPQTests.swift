import Testing

@testable import Persistence

/// libpq is loaded when a PostgreSQL store opens; when it cannot be, opening says which library
/// and why.
@Suite struct LibPQTests {
  @Test func aMissingLibraryIsReportedNamingIt() throws {
    let result = LibPQ.load("libpq-missing.so.5")
    #expect(throws: PersistenceError.self) { try result.get() }
    guard case .failure(let error) = result else { return }
    #expect(
      error.description
        == "Cannot connect to PostgreSQL at the server named by the connection string: "
        + "PostgreSQL's client library libpq-missing.so.5 could not be loaded: "
        + "libpq-missing.so.5: cannot open shared object file: No such file or directory.")
  }

  @Test func aLibraryWithoutLibPQsFunctionsIsReportedNamingTheFirstMissing() throws {
    let result = LibPQ.load("libsqlite3.so.0")
    #expect(throws: PersistenceError.self) { try result.get() }
    guard case .failure(let error) = result else { return }
    #expect(
      error.description
        == "Cannot connect to PostgreSQL at the server named by the connection string: "
        + "PostgreSQL's client library libsqlite3.so.0 could not be loaded: it has no function "
        + "PQclear.")
  }

  @Test func theSystemLibraryLoads() throws {
    _ = try LibPQ.load(LibPQ.fileName).get()
  }
}
