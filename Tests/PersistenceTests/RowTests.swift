import Foundation
import Persistence
import TestSupport
import Testing

/// A model whose `init(row:)` reads a property its schema does not declare.
private struct Stray: PersistentModel, Equatable {
  var id: Int
  var title: String
  var extra = 0

  static let schema = Schema<Stray>(
    table: "strays", columns: [Column(\.id, "id"), Column(\.title, "title")])

  init(id: Int, title: String) {
    self.id = id
    self.title = title
  }

  init(row: Row<Stray>) throws {
    id = try row[\.id]
    title = try row[\.title]
    extra = try row[\.extra]
  }
}

@Suite struct RowTests {
  @Test(arguments: Backend.allCases)
  func readingAPropertyTheSchemaDoesNotDeclareIsADecodingFailureNamingIt(_ backend: Backend)
    throws
  {
    let store = try Store(backend, Stray.self)
    // Twice: the second read finds the declared columns by the identity it learned.
    for _ in 1...2 {
      let error = #expect(throws: PersistenceError.self) {
        try store.context.insert(Stray(id: 1, title: "a"))
        _ = try store.context.fetchAll(Stray.self)
      }
      guard case .decodingFailed(let model, let column, let reason)? = error else {
        Issue.record("expected decodingFailed, got \(String(describing: error))")
        return
      }
      #expect(model == "Stray")
      #expect(column.hasSuffix("extra"))
      #expect(reason == "the key path is not a column of the schema")
      _ = try? store.context.delete(Stray.self, id: 1)
    }
  }
}
