import Foundation
import Loop
import Persistence
import TestSupport
import Testing

/// A model whose schema is its id alone: stored, read, updated and deleted like any other.
@Suite struct IDOnlyModelTests {
  @Test(arguments: Backend.allCases)
  func aModelOfAnIDAloneIsStoredAndRead(_ backend: Backend) throws {
    let store = try Store(backend, Marker.self)
    try store.context.insert(Marker(id: Marker.ID(UUID())))
    #expect(try store.context.fetchCount(FetchDescriptor<Marker>()) == 1)
  }

  @Test(arguments: Backend.allCases)
  func updatingAModelOfAnIDAloneFindsItOrSaysItIsMissing(_ backend: Backend) throws {
    let store = try Store(backend, Marker.self)
    let stored = Marker(id: Marker.ID(UUID()))
    try store.context.insert(stored)
    try store.context.update(stored)
    let missing = Marker(id: Marker.ID(UUID()))
    #expect(throws: PersistenceError.notFound(model: "Marker", id: "\(missing.id)")) {
      try store.context.update(missing)
    }
  }
}

/// A model of an id alone: its row says only that the id exists.
private struct Marker: PersistentModel, Equatable {
  typealias ID = ModelID<Marker>
  var id: ID

  static let schema = Schema<Marker>(table: "markers", columns: [Column(\.id, "id")])
}

extension Marker {
  init(row: Row<Marker>) throws {
    id = try row[\.id]
  }
}
