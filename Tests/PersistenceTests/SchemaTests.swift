import Foundation
import Persistence
import TestSupport
import Testing

private struct IDNotFirst: PersistentModel {
  var id: Int
  var title: String
  static let schema = Schema<IDNotFirst>(
    table: "things", columns: [Column(\.title, "title"), Column(\.id, "id")])
  init(row: Row<IDNotFirst>) throws {
    id = try row[\.id]
    title = try row[\.title]
  }
}

private struct WrongFirstColumn: PersistentModel {
  var id: Int
  var other: Int
  static let schema = Schema<WrongFirstColumn>(
    table: "things", columns: [Column(\.other, "other"), Column(\.id, "id")])
  init(id: Int, other: Int) {
    self.id = id
    self.other = other
  }
  init(row: Row<WrongFirstColumn>) throws {
    id = try row[\.id]
    other = try row[\.other]
  }
}

private struct Misnamed: PersistentModel {
  var id: Int
  static let schema = Schema<Misnamed>(table: "my table", columns: [Column(\.id, "id")])
  init(row: Row<Misnamed>) throws { id = try row[\.id] }
}

private struct DuplicateColumn: PersistentModel {
  var id: Int
  var a: Int
  static let schema = Schema<DuplicateColumn>(
    table: "things", columns: [Column(\.id, "id"), Column(\.a, "ID")])
  init(row: Row<DuplicateColumn>) throws {
    id = try row[\.id]
    a = try row[\.a]
  }
}

private struct SearchableNumber: PersistentModel {
  var id: Int
  var a: Int
  static let schema = Schema<SearchableNumber>(
    table: "things", columns: [Column(\.id, "id"), Column(\.a, "a", options: .searchable)])
  init(row: Row<SearchableNumber>) throws {
    id = try row[\.id]
    a = try row[\.a]
  }
}

private struct IndexOnNonColumn: PersistentModel {
  var id: Int
  var a: Int
  var double: Int { a * 2 }
  static let schema = Schema<IndexOnNonColumn>(
    table: "things", columns: [Column(\.id, "id"), Column(\.a, "a")], indexes: [Index(\.double)])
  init(row: Row<IndexOnNonColumn>) throws {
    id = try row[\.id]
    a = try row[\.a]
  }
}

private struct ReservedName: PersistentModel {
  var id: Int
  static let schema = Schema<ReservedName>(table: "things", columns: [Column(\.id, "loop_id")])
  init(row: Row<ReservedName>) throws { id = try row[\.id] }
}

private struct SameTableAsTag: PersistentModel {
  var id: String
  static let schema = Schema<SameTableAsTag>(table: "tags", columns: [Column(\.id, "id")])
  init(row: Row<SameTableAsTag>) throws { id = try row[\.id] }
}

@Suite struct SchemaTests {
  private static let identifierRule =
    "must be ASCII letters, digits and '_', not starting with a digit, 'loop_' or 'sqlite_'"

  static let invalid: [(any PersistentModel.Type, PersistenceError)] = [
    (
      IDNotFirst.self,
      .invalidSchema(model: "IDNotFirst", reason: "its first column must be \\.id, of type Int")
    ),
    (
      Misnamed.self,
      .invalidSchema(model: "Misnamed", reason: "the table name 'my table' \(identifierRule)")
    ),
    (
      DuplicateColumn.self,
      .invalidSchema(model: "DuplicateColumn", reason: "the column name 'ID' is used twice")
    ),
    (
      SearchableNumber.self,
      .invalidSchema(
        model: "SearchableNumber",
        reason: "column 'a' is searchable but is not a String or an optional String")
    ),
    (
      ReservedName.self,
      .invalidSchema(model: "ReservedName", reason: "the column name 'loop_id' \(identifierRule)")
    ),
  ]

  @Test(arguments: Backend.allCases)
  func malformedSchemasAreRejectedOnOpen(_ backend: Backend) throws {
    for (type, error) in Self.invalid {
      #expect(throws: error) { try Store(backend, type) }
    }
  }

  @Test(arguments: Backend.allCases)
  func anIndexOnAKeyPathThatIsNotAColumnIsRejected(_ backend: Backend) throws {
    #expect {
      try Store(backend, IndexOnNonColumn.self)
    } throws: { error in
      guard case .invalidSchema("IndexOnNonColumn", let reason) = error as? PersistenceError
      else { return false }
      return reason.hasPrefix("an index names ") && reason.hasSuffix(", which is not a column")
    }
  }

  @Test(arguments: Backend.allCases)
  func twoModelsCannotShareATable(_ backend: Backend) throws {
    #expect(
      throws: PersistenceError.invalidSchema(
        model: "SameTableAsTag", reason: "its table 'tags' is also the table of Tag")
    ) {
      try Store(backend, Tag.self, SameTableAsTag.self)
    }
  }

  @Test(arguments: Backend.allCases)
  func aFirstColumnOfTheIDsTypeThatIsNotTheIDIsCaughtOnWrite(_ backend: Backend) throws {
    let store = try Store(backend, WrongFirstColumn.self)
    #expect(
      throws: PersistenceError.invalidSchema(
        model: "WrongFirstColumn", reason: "its first column 'other' is not \\.id")
    ) {
      try store.context.insert(WrongFirstColumn(id: 1, other: 2))
    }
  }
}
